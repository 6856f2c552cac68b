export const root: string;
export function run(command: string, args: string[], options?: { env?: Record<string, string> }): void;
export function ensureInstall(): void;
export function ensureBuild(): void;
export function isRoot(): boolean;
export function fileExists(file: string): boolean;
