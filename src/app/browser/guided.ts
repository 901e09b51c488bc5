/** Guided sessions in the app: added in a later step. */
export function startGuided(): void {}
