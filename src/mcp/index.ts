export {
  DEFAULT_PROTOCOL_VERSION,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
} from './protocol.js';
export { type McpRoutesOptions, mcpRoutes } from './routes.js';
export { REQUEST_ID_ARGUMENT } from './tool-schemas.js';
