export { ServiceStateGate } from './ServiceStateGate.js';
