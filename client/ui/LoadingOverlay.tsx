/** Placeholder during the foundation work; replaced in this same change. */
export function LoadingOverlay(_props: { isLoading: boolean; message?: string }) {
  return null;
}
