import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { isRoomSecureId } from '../../../shared/id-shapes.js';
import { HttpError } from '../../lib/http.js';
import { fetchRoom, roomKeys } from '../../lib/rooms/api.js';
import { forgetKnownRoom } from '../../lib/rooms/known-rooms.js';

/**
 * Looks the room up, but only for a 64-character lowercase hex id (spec 000 §4). Any other id goes
 * to `/`, which fetches the default room; a 404 means the room is gone: /channel-destroyed, and out
 * of this browser's channel list.
 */
export function useRoomLookup(secureId: string) {
  const [, navigate] = useLocation();
  const isValidId = isRoomSecureId(secureId);
  const query = useQuery({
    queryKey: roomKeys.room(secureId),
    queryFn: () => fetchRoom(secureId),
    enabled: isValidId,
  });

  useEffect(() => {
    if (!isValidId) navigate('/', { replace: true });
  }, [isValidId, navigate]);

  useEffect(() => {
    if (query.error instanceof HttpError && query.error.status === 404) {
      void forgetKnownRoom(secureId);
      navigate('/channel-destroyed', { replace: true });
    }
  }, [query.error, navigate, secureId]);

  return query;
}
