export * from './schema';
export { DEMO_REGISTRY } from './demo-registry';
export { SCHEMA_LIMITS, schemaComplexityProblem, type SchemaComplexityProblem } from './schema-budget';
