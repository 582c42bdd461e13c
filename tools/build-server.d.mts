/** Types of tools/build-server.mjs, for the TypeScript that imports it (the history bench). */
export const serverBundle: string;
export const serverSources: string[];
export function buildServer(): Promise<void>;
