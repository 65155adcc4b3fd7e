/**
 * The ML-DSA-65 differential test, second half: the messages the first half
 * (tests/unit/ml-dsa-differential.test.ts) does not sign, in a file of its own so that the two
 * halves run side by side (tests/support/ml-dsa-differential.ts).
 */
import { describeDifferential } from '../support/ml-dsa-differential.js';

describeDifferential(1);
