/**
 * The object store seam shared by the coordinator and the workers, in Derive's own types (no AWS
 * SDK type appears here; {@code dev.derive.aws.s3.S3ObjectStore} is the implementation on S3).
 *
 * <p>One rule for a missing object (or version, or bucket): a read that asks whether something is
 * there ({@link dev.derive.storage.ObjectStore#head}, {@link dev.derive.storage.ObjectStore#size},
 * {@link dev.derive.storage.ObjectStore#readStart}) answers {@link java.util.Optional#empty()}; a
 * read that needs the bytes ({@link dev.derive.storage.ObjectStore#download}) throws {@link
 * dev.derive.storage.ObjectNotFoundException}. Every other failure of the store (access denied,
 * throttling, a timeout, the network) is an {@link dev.derive.storage.ObjectStoreException} whose
 * cause is the store's own exception, so callers retry without naming the store's types.
 */
package dev.derive.storage;
