/**
 * libvips through {@code java.lang.foreign}: {@link dev.derive.worker.libvips.Vips} (loading,
 * settings, the bound C functions), {@link dev.derive.worker.libvips.VipsImage} (one image
 * reference), and the two ways a call fails, {@link dev.derive.worker.libvips.VipsException} (the
 * input or the operation) and {@link dev.derive.worker.libvips.VipsUnavailableException} (the
 * library cannot be loaded here). Nothing else of Derive is used: a capability depends on this
 * module, never the other way round.
 */
package dev.derive.worker.libvips;
