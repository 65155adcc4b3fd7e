/** A list item with a terminal chevron. */
export function FeatureBullet({ children }: { children: string }) {
  return (
    <li className="flex gap-2">
      <span aria-hidden="true" className="text-primary">
        ›
      </span>
      <span>{children}</span>
    </li>
  );
}
