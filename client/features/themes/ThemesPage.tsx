/**
 * Themes page /themes (spec 001 §2): pick a theme, see the effects it gives the chat and the
 * swatches of its colours. Each card previews its own theme by redefining the colour variables
 * for its subtree only, so the same Tailwind classes paint it in that theme's colours.
 */
import { useEffect, useState, type CSSProperties } from 'react';
import { Link } from 'wouter';
import { toast } from '../../ui/use-toast.js';
import { ThemeSelector } from './ThemeSelector.js';
import { type Theme, type ThemeColors } from './themes.js';
import { useTheme } from './use-theme.js';

/** Local values for the theme variables, scoped to one element and its children. */
function previewStyle(theme: Theme): CSSProperties & Record<`--${string}`, string> {
  const { colors, signals } = theme;
  return {
    '--color-primary': colors.primary,
    '--color-secondary': colors.secondary,
    '--color-accent': colors.accent,
    '--color-background': colors.background,
    '--color-surface': colors.surface,
    '--color-fg': colors.text,
    '--color-muted': colors.muted,
    '--color-danger': signals.danger,
    '--color-border': `color-mix(in srgb, ${colors.primary} 35%, transparent)`,
    '--sc-primary': colors.primary,
    '--sc-secondary': colors.secondary,
    '--sc-accent': colors.accent,
    '--sc-background': colors.background,
    '--sc-surface': colors.surface,
    '--sc-text': colors.text,
    '--sc-muted': colors.muted,
  };
}

function ThemeCard({
  theme,
  isActive,
  onSelect,
}: {
  theme: Theme;
  isActive: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      data-testid={`theme-card-${theme.id}`}
      aria-pressed={isActive}
      onClick={onSelect}
      style={previewStyle(theme)}
      className={`group flex flex-col border bg-background text-left font-mono transition-shadow hover:shadow-[0_0_16px_color-mix(in_srgb,var(--sc-primary)_35%,transparent)] ${
        isActive
          ? 'border-primary shadow-[0_0_14px_color-mix(in_srgb,var(--sc-primary)_30%,transparent)]'
          : 'border-border'
      }`}
    >
      <span className="flex items-center justify-between border-b border-border bg-surface px-3 py-1.5 text-xs">
        <span className="tracking-[0.2em] text-muted uppercase">{theme.id}.profile</span>
        <span className={`tracking-[0.2em] uppercase ${isActive ? 'text-primary' : 'text-muted'}`}>
          {isActive ? '● Active' : '○ Select'}
        </span>
      </span>
      <span className="flex flex-1 flex-col gap-2 p-3">
        <span className="text-sm font-bold tracking-wider text-primary uppercase">
          {theme.name}
        </span>
        <span className="text-xs leading-relaxed text-fg">{theme.description}</span>
        <span className="text-xs text-secondary">
          <span className="text-muted">$</span> connect --secure{' '}
          <span className="text-accent">OK</span>
        </span>
      </span>
      <span aria-hidden="true" className="flex h-2">
        {(['primary', 'secondary', 'accent', 'surface', 'muted'] as const).map((key) => (
          <span key={key} className="flex-1" style={{ backgroundColor: theme.colors[key] }} />
        ))}
      </span>
    </button>
  );
}

const LOG_LINES = [
  { time: '14:02:11', status: 'OK', text: 'Handshake with relay node complete' },
  { time: '14:02:11', status: 'OK', text: 'PFS-ECDH (P-256) session key derived' },
  { time: '14:02:12', status: 'OK', text: 'ML-DSA-65 signature verified' },
  { time: '14:02:12', status: '..', text: 'Awaiting operatives' },
] as const;

function TerminalLogSample() {
  return (
    <figure className="sc-panel relative overflow-hidden p-4 text-xs leading-relaxed">
      <figcaption className="mb-2 tracking-[0.2em] text-muted uppercase">
        {'// Terminal log'}
      </figcaption>
      <ul className="space-y-0.5">
        {LOG_LINES.map((line) => (
          <li key={line.text}>
            <span className="text-muted">[{line.time}]</span>{' '}
            <span className={line.status === 'OK' ? 'text-primary' : 'text-warning'}>
              [{line.status}]
            </span>{' '}
            <span className="text-fg">{line.text}</span>
          </li>
        ))}
        <li className="sc-cursor text-primary">&gt; </li>
      </ul>
    </figure>
  );
}

const SAMPLE_LIFETIME_S = 30;

function MessageSample() {
  const [secondsLeft, setSecondsLeft] = useState(SAMPLE_LIFETIME_S);
  useEffect(() => {
    const timer = window.setInterval(
      () => setSecondsLeft((left) => (left <= 1 ? SAMPLE_LIFETIME_S : left - 1)),
      1000,
    );
    return () => window.clearInterval(timer);
  }, []);
  const isUrgent = secondsLeft <= 5;
  return (
    <figure className="sc-panel p-4 text-xs">
      <figcaption className="mb-3 tracking-[0.2em] text-muted uppercase">
        {'// Message bubble'}
      </figcaption>
      <div className="max-w-md border-l-2 border-primary bg-background/60 px-3 py-2">
        <div className="mb-1 flex items-center justify-between gap-3">
          <span className="font-bold tracking-wider text-primary">Ghost4521</span>
          <span className="text-muted">14:03</span>
        </div>
        <p className="text-sm text-fg">Package is at drop point 7. Burn this after reading.</p>
        <div className="mt-2 flex items-center justify-between gap-3">
          <span className="text-secondary">AES-256-GCM</span>
          <span className={isUrgent ? 'text-danger' : 'text-warning'}>
            Self-destruct in <span className="tabular-nums">{secondsLeft}s</span>
          </span>
        </div>
        <div className="mt-1 h-0.5 bg-muted/25" aria-hidden="true">
          <div
            className={`h-full transition-[width] duration-1000 ease-linear ${isUrgent ? 'bg-danger' : 'bg-warning'}`}
            style={{ width: `${(secondsLeft / SAMPLE_LIFETIME_S) * 100}%` }}
          />
        </div>
      </div>
    </figure>
  );
}

function AlertSample() {
  return (
    <figure className="sc-panel p-4 text-xs">
      <figcaption className="mb-3 tracking-[0.2em] text-muted uppercase">{'// Alerts'}</figcaption>
      <div className="space-y-2">
        <p className="border border-danger/70 bg-danger/10 px-3 py-2 text-danger">
          <span className="font-bold">[!] SECURITY ALERT:</span> unverified node attempted to join.
        </p>
        <p className="border border-warning/60 bg-warning/10 px-3 py-2 text-warning">
          <span className="font-bold">[~] WARNING:</span> channel self-destructs in 14 min.
        </p>
        <p className="flex items-center gap-3 text-fg">
          <span className="sc-classified text-xs">Classified</span>
          <span className="text-muted">Eyes only / level 5</span>
        </p>
      </div>
      <div className="mt-3 flex justify-end">
        <button
          type="button"
          className="sc-btn px-2 py-1 text-xs"
          onClick={() =>
            toast({
              title: 'Transmission received',
              description: 'Notifications follow the active theme.',
              variant: 'success',
            })
          }
        >
          [ Preview toast ]
        </button>
      </div>
    </figure>
  );
}

function GlowSample() {
  return (
    <figure className="sc-panel p-4">
      <figcaption className="mb-3 text-xs tracking-[0.2em] text-muted uppercase">
        {'// Glitch and glow'}
      </figcaption>
      <p className="text-2xl font-bold tracking-[0.2em] text-primary uppercase">
        <span className="sc-glitch sc-glow" data-text="Secure Channel">
          Secure Channel
        </span>
      </p>
      <p className="sc-glow mt-2 text-sm tracking-[0.3em] text-accent uppercase">
        Link encrypted end to end
      </p>
      <p className="mt-4 text-xs text-muted">
        <span className="text-secondary">&gt;</span> decrypting payload{' '}
        <span aria-hidden="true" className="text-primary">
          ████████░░░
        </span>{' '}
        <span className="text-fg tabular-nums">72%</span>
      </p>
    </figure>
  );
}

const SWATCH_KEYS = [
  'primary',
  'secondary',
  'accent',
  'surface',
] as const satisfies readonly (keyof ThemeColors)[];

const SWATCH_CLASS: Record<(typeof SWATCH_KEYS)[number], string> = {
  primary: 'bg-primary',
  secondary: 'bg-secondary',
  accent: 'bg-accent',
  surface: 'bg-surface',
};

function Swatches({ theme }: { theme: Theme }) {
  return (
    <section aria-labelledby="theme-swatches-heading" className="sc-panel p-4">
      <h2
        id="theme-swatches-heading"
        className="mb-3 text-xs tracking-[0.2em] text-muted uppercase"
      >
        {'// Colour swatches'}
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {SWATCH_KEYS.map((key) => (
          <li key={key} className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className={`size-10 shrink-0 border border-fg/25 ${SWATCH_CLASS[key]}`}
            />
            <span className="flex min-w-0 flex-col">
              <span className="text-xs tracking-[0.2em] text-fg uppercase">{key}</span>
              <span className="text-xs text-muted tabular-nums">{theme.colors[key]}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ThemesPage() {
  const { theme, themeId, themes, setTheme } = useTheme();
  return (
    <main className="min-h-screen bg-background font-mono text-fg">
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <header className="flex flex-wrap items-end justify-between gap-4 border-b border-border pb-5">
          <div>
            <p className="text-xs tracking-[0.3em] text-muted uppercase">{'// System / display'}</p>
            <h1 className="sc-glow mt-1 text-2xl font-bold tracking-wider text-primary sm:text-3xl">
              SecureChannel Themes
            </h1>
            <p className="mt-2 max-w-xl text-sm text-muted">
              Six display profiles for the terminal. The choice is stored on this device only.
            </p>
          </div>
          <nav aria-label="Themes page" className="flex flex-wrap items-center gap-3">
            <ThemeSelector variant="full" />
            <Link href="/" className="sc-btn no-underline">
              [ ← Back to chat ]
            </Link>
          </nav>
        </header>

        <section aria-labelledby="theme-cards-heading" className="mt-8">
          <h2
            id="theme-cards-heading"
            className="mb-4 text-xs tracking-[0.3em] text-muted uppercase"
          >
            {`// Display profiles (${themes.length})`}
          </h2>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {themes.map((option) => (
              <ThemeCard
                key={option.id}
                theme={option}
                isActive={option.id === themeId}
                onSelect={() => setTheme(option.id)}
              />
            ))}
          </div>
        </section>

        <section aria-labelledby="theme-effects-heading" className="mt-10">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2
              id="theme-effects-heading"
              className="text-xs tracking-[0.3em] text-muted uppercase"
            >
              {'// Effects: '}
              <span className="text-primary">{theme.name}</span>
            </h2>
            <ThemeSelector variant="compact" />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <TerminalLogSample />
            <MessageSample />
            <AlertSample />
            <GlowSample />
          </div>
          <div className="mt-4">
            <Swatches theme={theme} />
          </div>
        </section>
      </div>
    </main>
  );
}
