import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THEME_ID,
  THEME_IDS,
  THEME_LIST,
  THEMES,
  nextThemeId,
  parseThemeId,
  themeVariables,
} from '../../../client/features/themes/themes.js';

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => {
    const value = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const [red = 0, green = 0, blue = 0] = channels;
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/;
const COLOUR_KEYS = ['primary', 'secondary', 'accent', 'background', 'surface', 'text', 'muted'];

describe('parseThemeId (spec 000 §5)', () => {
  it('keeps each of the six known ids', () => {
    for (const id of THEME_IDS) expect(parseThemeId(id)).toBe(id);
  });

  it('falls back to classic for an unknown id', () => {
    expect(parseThemeId('solarized')).toBe('classic');
    expect(parseThemeId('')).toBe('classic');
    expect(parseThemeId('MATRIX')).toBe('classic');
  });

  it('falls back to classic for values that are not strings', () => {
    for (const value of [null, undefined, 3, {}, ['matrix'], true]) {
      expect(parseThemeId(value)).toBe('classic');
    }
  });

  it('defaults to classic', () => {
    expect(DEFAULT_THEME_ID).toBe('classic');
  });
});

describe('theme cycling (spec 000 §4)', () => {
  it('follows the order of the six themes and wraps to the first', () => {
    expect(THEME_IDS).toEqual(['matrix', 'cyberpunk', 'neon', 'classic', 'cia', 'nsa']);
    expect(nextThemeId('matrix')).toBe('cyberpunk');
    expect(nextThemeId('classic')).toBe('cia');
    expect(nextThemeId('nsa')).toBe('matrix');
  });

  it('visits every theme once in six steps', () => {
    const visited = new Set<string>();
    let id = nextThemeId('classic');
    for (let step = 0; step < THEME_IDS.length; step += 1) {
      visited.add(id);
      id = nextThemeId(id);
    }
    expect(visited.size).toBe(6);
    expect(id).toBe(nextThemeId('classic'));
  });
});

describe('theme palettes (spec 000 §3)', () => {
  it('names the six themes as the spec does', () => {
    expect(Object.fromEntries(THEME_LIST.map((theme) => [theme.id, theme.name]))).toEqual({
      matrix: 'Matrix Terminal',
      cyberpunk: 'Cyberpunk Neon',
      neon: 'Electric Blue',
      classic: 'Classic Dark',
      cia: 'CIA Intelligence',
      nsa: 'NSA Surveillance',
    });
  });

  it.each(THEME_LIST)('$id has a description and all seven colours as #rrggbb', (theme) => {
    expect(theme.description.length).toBeGreaterThan(0);
    expect(Object.keys(theme.colors).sort()).toEqual([...COLOUR_KEYS].sort());
    for (const value of Object.values(theme.colors)) expect(value).toMatch(HEX_COLOUR);
    for (const value of Object.values(theme.signals)) expect(value).toMatch(HEX_COLOUR);
  });

  it.each(THEME_LIST)('$id keeps text colours at WCAG AA on background and surface', (theme) => {
    const { background, surface, ...foregrounds } = theme.colors;
    for (const ground of [background, surface]) {
      expect(contrastRatio(theme.colors.text, ground)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(theme.colors.muted, ground)).toBeGreaterThanOrEqual(4.5);
      for (const colour of [...Object.values(foregrounds), ...Object.values(theme.signals)]) {
        expect(contrastRatio(colour, ground)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('gives every theme a distinct palette', () => {
    const palettes = new Set(THEME_LIST.map((theme) => JSON.stringify(theme.colors)));
    expect(palettes.size).toBe(6);
  });

  it('maps each colour to its --sc-* variable', () => {
    const variables = themeVariables(THEMES.matrix);
    expect(variables['--sc-primary']).toBe(THEMES.matrix.colors.primary);
    expect(variables['--sc-text']).toBe(THEMES.matrix.colors.text);
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining([
        '--sc-primary',
        '--sc-secondary',
        '--sc-accent',
        '--sc-background',
        '--sc-surface',
        '--sc-text',
        '--sc-muted',
      ]),
    );
  });
});
