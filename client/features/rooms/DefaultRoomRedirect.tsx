/**
 * `/`: fetches the default room and, once found, redirects after about 400 ms to
 * /chat/{secureId}. Without a default room it stays on a blank page (spec 001 §2).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { DEFAULT_ROOM_REDIRECT_MS } from '../../../shared/constants.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { fetchDefaultRoom, roomKeys } from '../../lib/rooms/api.js';

export function DefaultRoomRedirect() {
  const [, navigate] = useLocation();
  const { data, isError } = useQuery({ queryKey: roomKeys.defaultRoom, queryFn: fetchDefaultRoom });

  useEffect(() => {
    if (!data) return;
    const timer = window.setTimeout(
      () => navigate(`/chat/${data.secureId}`, { replace: true }),
      DEFAULT_ROOM_REDIRECT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [data, navigate]);

  if (isError) return <main aria-label="SecureChannel" className="min-h-screen bg-background" />;
  return <LoadingOverlay isLoading message={TEXT.initializingChannels} />;
}
