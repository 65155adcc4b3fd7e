/**
 * The six themes of spec 000 §3 and the rules around them (§4 cycling order, §5 stored value).
 * Pure data and functions: nothing here touches `window` or `document`, so unit tests import it
 * without a DOM. Every text colour (primary, secondary, accent, text, muted) and every signal
 * colour keeps a WCAG AA contrast of at least 4.5:1 on both `background` and `surface`.
 */
/** The seven colours of a theme (spec 000 §3). */
export interface ThemeColors {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
  surface: string;
  text: string;
  muted: string;
}

/** Status colours tuned per theme so alerts stay readable and distinct from `primary`. */
export interface ThemeSignals {
  danger: string;
  warning: string;
  orange: string;
}

/** Theme ids in cycling order (spec 000 §3, §4). */
export const THEME_IDS = ['matrix', 'cyberpunk', 'neon', 'classic', 'cia', 'nsa'] as const;

export type ThemeId = (typeof THEME_IDS)[number];

/**
 * True when `value` is one of the six ids. A closed list of words needs no schema library: this
 * module is read before the first paint, which must not load zod (issue 22, target 5).
 */
export function isThemeId(value: unknown): value is ThemeId {
  return THEME_IDS.some((id) => id === value);
}

export interface Theme {
  id: ThemeId;
  name: string;
  description: string;
  colors: ThemeColors;
  signals: ThemeSignals;
}

/** Default theme (spec 000 §4). */
export const DEFAULT_THEME_ID: ThemeId = 'classic';

/** The CSS variable each colour is written to on `document.documentElement`. */
export const THEME_COLOR_VARIABLES = {
  primary: '--sc-primary',
  secondary: '--sc-secondary',
  accent: '--sc-accent',
  background: '--sc-background',
  surface: '--sc-surface',
  text: '--sc-text',
  muted: '--sc-muted',
} as const satisfies Record<keyof ThemeColors, string>;

export const THEME_SIGNAL_VARIABLES = {
  danger: '--sc-danger',
  warning: '--sc-warning',
  orange: '--sc-orange',
} as const satisfies Record<keyof ThemeSignals, string>;

/** The six themes, keyed by id. */
export const THEMES: Readonly<Record<ThemeId, Theme>> = {
  matrix: {
    id: 'matrix',
    name: 'Matrix Terminal',
    description: 'Green phosphor on black, with soft glow and CRT scanlines.',
    colors: {
      primary: '#00ff41',
      secondary: '#00c837',
      accent: '#b3ff00',
      background: '#000a03',
      surface: '#04170a',
      text: '#c9ffd6',
      muted: '#5fb374',
    },
    signals: { danger: '#ff5f56', warning: '#e6ff4d', orange: '#ffa640' },
  },
  cyberpunk: {
    id: 'cyberpunk',
    name: 'Cyberpunk Neon',
    description: 'Hot pink and cyan neon over a deep violet night city.',
    colors: {
      primary: '#ff2a8a',
      secondary: '#00e5ff',
      accent: '#f5ee30',
      background: '#0d0221',
      surface: '#1b0a3a',
      text: '#f3e9ff',
      muted: '#a992d6',
    },
    signals: { danger: '#ff5c5c', warning: '#ffe45c', orange: '#ff9e3d' },
  },
  neon: {
    id: 'neon',
    name: 'Electric Blue',
    description: 'Cold electric blues with a cyan arc, like a live circuit.',
    colors: {
      primary: '#1fb6ff',
      secondary: '#7b9dff',
      accent: '#00ffd5',
      background: '#020914',
      surface: '#0a1a2e',
      text: '#dcefff',
      muted: '#7f9fc6',
    },
    signals: { danger: '#ff6b6b', warning: '#ffd84d', orange: '#ff9f43' },
  },
  classic: {
    id: 'classic',
    name: 'Classic Dark',
    description: 'Neutral graphite with a calm terminal green. Easy on the eyes.',
    colors: {
      primary: '#3ddc84',
      secondary: '#9fb3c8',
      accent: '#f2c14e',
      background: '#111315',
      surface: '#1b1e22',
      text: '#e6e8eb',
      muted: '#9aa2ad',
    },
    signals: { danger: '#ff6b6b', warning: '#f2c14e', orange: '#ff9f43' },
  },
  cia: {
    id: 'cia',
    name: 'CIA Intelligence',
    description: 'Navy dossier with brass gold highlights and CLASSIFIED stamps.',
    colors: {
      primary: '#e0b84f',
      secondary: '#8fb3e0',
      accent: '#ff6b5e',
      background: '#0a1326',
      surface: '#12213f',
      text: '#eef2f8',
      muted: '#96a7c2',
    },
    signals: { danger: '#ff6b5e', warning: '#ffd75e', orange: '#ffa04d' },
  },
  nsa: {
    id: 'nsa',
    name: 'NSA Surveillance',
    description: 'Amber monitor glow on a dark console, with a red REC indicator.',
    colors: {
      primary: '#ffb000',
      secondary: '#d9a45b',
      accent: '#ff5040',
      background: '#0c0a07',
      surface: '#1b160d',
      text: '#ffe9c2',
      muted: '#b09670',
    },
    signals: { danger: '#ff5040', warning: '#fff06a', orange: '#ff8a3d' },
  },
};

/** The six themes in cycling order. */
export const THEME_LIST: readonly Theme[] = THEME_IDS.map((id) => THEMES[id]);

/** The stored value if it names one of the six themes, otherwise classic (spec 000 §5). */
export function parseThemeId(stored: unknown): ThemeId {
  return isThemeId(stored) ? stored : DEFAULT_THEME_ID;
}

/** The theme after `id` in cycling order, wrapping from the last to the first (spec 000 §4). */
export function nextThemeId(id: ThemeId): ThemeId {
  const index = THEME_IDS.indexOf(id);
  return THEME_IDS[(index + 1) % THEME_IDS.length] ?? DEFAULT_THEME_ID;
}

const COLOR_KEYS = [
  'primary',
  'secondary',
  'accent',
  'background',
  'surface',
  'text',
  'muted',
] as const satisfies readonly (keyof ThemeColors)[];

const SIGNAL_KEYS = [
  'danger',
  'warning',
  'orange',
] as const satisfies readonly (keyof ThemeSignals)[];

/** CSS variable name → value for every colour and signal of a theme. */
export function themeVariables(theme: Theme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const key of COLOR_KEYS) variables[THEME_COLOR_VARIABLES[key]] = theme.colors[key];
  for (const key of SIGNAL_KEYS) variables[THEME_SIGNAL_VARIABLES[key]] = theme.signals[key];
  return variables;
}

/** Window event broadcast after a theme is applied (spec 000 §4). */
export const THEME_CHANGED_EVENT = 'themeChanged';

/** `detail` of the {@link THEME_CHANGED_EVENT} CustomEvent. */
export interface ThemeChangedDetail {
  themeId: ThemeId;
}
