/** The system feature: ping and the OpenAPI document. */
export { systemRoutes } from './routes.js';
