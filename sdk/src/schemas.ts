/** The zod schemas of the contract, for callers who validate data at runtime (forms, stored answers). */
export * from './contract/account.js';
export * from './contract/catalog.js';
export * from './contract/common.js';
export * from './contract/diagnostic.js';
export * from './contract/documents.js';
export * from './contract/models.js';
export * from './contract/problems.js';
export * from './contract/search.js';
export * from './contract/sessions.js';
