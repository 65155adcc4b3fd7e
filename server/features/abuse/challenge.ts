/** The Security Verification challenge: a small arithmetic question (spec 000 §2, §4). */
import { randomInt, randomUUID } from 'node:crypto';

export interface Challenge {
  challengeId: string;
  question: string;
  answer: number;
}

export function newChallenge(): Challenge {
  const a = randomInt(2, 20);
  const b = randomInt(2, 20);
  const useProduct = randomInt(0, 2) === 1;
  return {
    challengeId: randomUUID(),
    question: useProduct ? `What is ${a} × ${b}?` : `What is ${a} + ${b}?`,
    answer: useProduct ? a * b : a + b,
  };
}

/** True when `given` (trimmed) is the answer as a whole number. */
export function isCorrect(challenge: Challenge, given: string): boolean {
  const trimmed = given.trim();
  return /^-?\d{1,6}$/.test(trimmed) && Number(trimmed) === challenge.answer;
}
