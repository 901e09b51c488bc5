/**
 * The protocol revisions the endpoint speaks. The JSON-RPC framing, classification and version negotiation
 * are the official SDK's (`@modelcontextprotocol/server`); what is ours is which revisions we accept.
 */

/** The revision served natively: no handshake, every request carries its version in `_meta`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** 2025-era revisions, served per request by the SDK's Streamable HTTP transport, oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const PROTOCOL_VERSIONS = [...LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
/** The latest 2025-era revision, offered in `initialize` to a client asking for one we do not speak. */
export const LATEST_LEGACY_PROTOCOL_VERSION = '2025-11-25';
/** What a 2025-era request without an MCP-Protocol-Version header is taken to speak (the transport spec's default). */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-06-18';

export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** Batches (JSON arrays of messages) existed in 2025-03-26 only; later revisions removed them. */
export function allowsBatches(version: ProtocolVersion): boolean {
  return version === '2025-03-26';
}
