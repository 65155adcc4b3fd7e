/** `GET /api/rooms/{id}/moderation-log`, parsed by its shared schema. */
import {
  ModerationLogResponseSchema,
  type ModerationLogResponse,
} from '../../../shared/protocol/http/moderation.js';
import { apiRequest } from '../../lib/http.js';

export const moderationKeys = {
  log: (roomId: string) => ['moderation-log', roomId] as const,
};

export function fetchModerationLog(roomId: string): Promise<ModerationLogResponse> {
  return apiRequest(
    `/api/rooms/${encodeURIComponent(roomId)}/moderation-log`,
    ModerationLogResponseSchema,
  );
}
