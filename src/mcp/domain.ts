// The mcp domain as the composition root (src/compose.ts) takes it: what it plugs into the service.
import type { Domain } from '../context.ts';
import { mcpRoutes } from './routes.ts';
import { loadMcpSettings } from './settings.ts';

export const MCP: Domain = {
  name: 'mcp',
  routes: mcpRoutes,
  settings: { key: 'mcp', load: loadMcpSettings },
  // The client documents' fetcher: the system's resolver and CAs.
  outbound: { clientDocuments: () => ({}) },
};
