/**
 * Tells the room when someone here presses a screenshot shortcut (see screenshot-guard.ts): a
 * `security_alert` frame, at most once per ten seconds. The server turns it into a
 * SECURITY_SYSTEM line for everyone in the room.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { type SendFrame } from '../../lib/admin/admin-socket.js';
import { createAlertThrottle, screenshotMethod } from './screenshot-guard.js';

/** `isActive`: only while joined to a room, where the alert means something. */
export function useScreenshotGuard(send: SendFrame, isActive: boolean): void {
  const [isAllowed] = useState(() => createAlertThrottle());
  const report = useEffectEvent((event: KeyboardEvent) => {
    const method = screenshotMethod(event);
    if (method === null || !isAllowed(Date.now())) return;
    send({
      type: 'security_alert',
      alertType: 'screenshot_attempt',
      method,
      timestamp: new Date().toISOString(),
    });
  });

  useEffect(() => {
    if (!isActive) return;
    // PrintScreen often reaches the page only as keyup; the throttle keeps it to one alert.
    const onKey = (event: KeyboardEvent) => report(event);
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
    };
  }, [isActive]);
}
