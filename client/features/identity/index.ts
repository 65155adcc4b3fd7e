export { useCallsign } from './use-callsign.js';
