export * from './schema';
export { DEMO_REGISTRY } from './demo-registry';
export { SCHEMA_LIMITS, schemaComplexityProblem, type SchemaComplexityProblem } from './schema-budget';
export { A2aEndpoint, ENDPOINT_PROTOCOLS, McpEndpoint, OpenAiEndpoint, ResourceEndpoint, WebhookEndpoint, endpointFor, type EndpointProtocol } from './endpoint';
