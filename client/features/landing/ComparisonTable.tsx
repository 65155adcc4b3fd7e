import { COMPARISON_COLUMNS, COMPARISON_ROWS, type Support } from './landing-content.js';
import { PANEL, SECTION } from '../../ui/landing-styles.js';
import { SectionHeading } from './SectionHeading.js';

const SUPPORT_GLYPH: Record<Support, { glyph: string; word: string; className: string }> = {
  yes: { glyph: '✓', word: 'yes', className: 'text-primary' },
  no: { glyph: '✗', word: 'no', className: 'text-danger' },
  varies: { glyph: '~', word: 'varies by product', className: 'text-warning' },
};

function SupportCell({ support }: { support: Support }) {
  const { glyph, word, className } = SUPPORT_GLYPH[support];
  return (
    <td className="border-t border-border px-2 py-3 sm:px-3 text-center">
      <span aria-hidden="true" className={`text-lg font-bold leading-none ${className}`}>
        {glyph}
      </span>
      <span className="sr-only">{word}</span>
    </td>
  );
}

/** SecureChannel against categories of messenger, never named products. */
export function ComparisonTable() {
  return (
    <section id="comparison" aria-labelledby="comparison-heading" className={SECTION}>
      <SectionHeading
        id="comparison-heading"
        index={3}
        label="Comparison"
        lead="How SecureChannel differs from the usual kinds of messenger, including what it gives up. Categories, not specific products: individual products differ."
      />
      <div
        role="region"
        aria-labelledby="comparison-caption"
        tabIndex={0}
        className={`${PANEL} relative overflow-x-auto`}
      >
        <table className="w-full border-collapse text-left text-xs sm:text-sm">
          <caption
            id="comparison-caption"
            className="caption-bottom border-t border-border px-2 py-3 sm:px-3 text-left text-xs text-muted"
          >
            SecureChannel compared with typical alternatives.{' '}
            <span aria-hidden="true">✓ yes · ✗ no · ~ varies by product.</span>
          </caption>
          <thead>
            <tr className="bg-background/60 text-xs uppercase sm:tracking-[0.15em]">
              <th scope="col" className="px-2 py-3 sm:px-3 font-bold text-muted">
                Property
              </th>
              {COMPARISON_COLUMNS.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={`px-2 py-3 sm:px-3 text-center font-bold ${index === 0 ? 'text-primary' : 'text-muted'}`}
                >
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {COMPARISON_ROWS.map((row) => (
              <tr key={row.property} className="transition-colors hover:bg-primary/5">
                <th
                  scope="row"
                  className="border-t border-border px-2 py-3 sm:px-3 font-normal text-fg"
                >
                  {row.property}
                </th>
                <SupportCell support={row.secureChannel} />
                <SupportCell support={row.hostedMessenger} />
                <SupportCell support={row.selfHostedTeamChat} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
