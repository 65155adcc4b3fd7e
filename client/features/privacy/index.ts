export { ServerTrustGate } from './ServerTrustGate.js';
