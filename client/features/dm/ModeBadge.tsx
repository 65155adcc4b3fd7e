/** The small 'E2E' or 'SERVER-ASSISTED' badge of a thread, explained on hover and in the legend. */
import { MODE_BADGE, MODE_EXPLANATION, type DmThreadMode } from './thread-mode.js';

export function ModeBadge({ mode }: { mode: DmThreadMode }) {
  const tone = mode === 'e2e' ? 'border-primary/70 text-primary' : 'border-warning/70 text-warning';
  return (
    <span
      title={MODE_EXPLANATION[mode]}
      data-testid="dm-mode-badge"
      data-mode={mode}
      className={`inline-block shrink-0 border px-1.5 py-px text-[10px] font-bold tracking-widest ${tone}`}
    >
      {MODE_BADGE[mode]}
    </span>
  );
}
