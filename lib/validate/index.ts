export * from './issue';
export { validatePlan } from './validate-plan';
