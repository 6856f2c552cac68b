export * from './schema';
export { DEMO_REGISTRY } from './demo-registry';
