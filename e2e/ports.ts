// PLANGATE_E2E_PORT moves every port the suite binds, so two checkouts can run it side by side.
const PORT_BASE = Number(process.env.PLANGATE_E2E_PORT ?? 3100);
export const PORTS = {
  pglite: PORT_BASE,
  postgresA: PORT_BASE + 1,
  postgresB: PORT_BASE + 2,
  crash: PORT_BASE + 20,
  instanceA: PORT_BASE + 21,
  instanceB: PORT_BASE + 22,
} as const;
