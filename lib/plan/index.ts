export * from './schema';
export * from './limits';
export * from './hash';
export * from './commands';
export * from './diff';
export * from './json-path';
export * from './step-templates';
