/**
 * What the coordinator and the workers share, and nothing else: the step and step-result messages
 * that travel over SQS ({@link dev.derive.protocol.message}), the capability declarations the
 * planner and {@code GET /v1/capabilities} read ({@link dev.derive.protocol.capability}), and the
 * canonical encoding and fingerprint that make a derivative's identity ({@link
 * dev.derive.protocol.identity}), and the byte caps on the streams both read and write ({@link
 * dev.derive.protocol.io}).
 */
package dev.derive.protocol;
