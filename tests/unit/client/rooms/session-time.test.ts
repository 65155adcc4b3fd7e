/** The session timer and unread count texts (spec 000 §2, §4). */
import { describe, expect, it } from 'vitest';
import {
  formatSessionTime,
  formatUnreadCount,
} from '../../../../client/features/rooms/session-time.js';
import { typingText } from '../../../../client/features/messages/TypingIndicator.js';

describe('formatSessionTime', () => {
  it('shows mm:ss under an hour and hh:mm:ss from an hour on', () => {
    expect(formatSessionTime(0)).toBe('00:00');
    expect(formatSessionTime(65)).toBe('01:05');
    expect(formatSessionTime(3599)).toBe('59:59');
    expect(formatSessionTime(3600)).toBe('01:00:00');
    expect(formatSessionTime(36_061)).toBe('10:01:01');
  });
});

describe('formatUnreadCount', () => {
  it('caps the count at 99, shown as 99+', () => {
    expect(formatUnreadCount(5, 99)).toBe('5');
    expect(formatUnreadCount(99, 99)).toBe('99');
    expect(formatUnreadCount(100, 99)).toBe('99+');
  });
});

describe('typingText', () => {
  it('names one or two typists and counts more', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Agent1'])).toBe('Agent1 is typing...');
    expect(typingText(['Agent1', 'Op2'])).toBe('Agent1 and Op2 are typing...');
    expect(typingText(['a', 'b', 'c'])).toBe('3 operatives are typing...');
  });
});
