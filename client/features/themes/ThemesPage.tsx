/** Placeholder during the foundation work; replaced in this same change. */
export function ThemesPage() {
  return null;
}
