/**
 * The `full` theme selector (spec 000 §2): a dropdown listing all six themes, each with its
 * palette. Its own module: Radix's dropdown menu is loaded only by the pages that show it.
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { parseThemeId, type Theme } from './themes.js';
import { useTheme } from './use-theme.js';

/** The theme's own colours as small squares; decoration only. */
function PaletteDots({ theme }: { theme: Theme }) {
  const { primary, secondary, accent } = theme.colors;
  return (
    <span aria-hidden="true" className="flex gap-0.5">
      {[primary, secondary, accent].map((color) => (
        <span
          key={color}
          className="inline-block size-2.5 border border-fg/30"
          style={{ backgroundColor: color }}
        />
      ))}
    </span>
  );
}

export function ThemeDropdown() {
  const { theme, themeId, themes, setTheme } = useTheme();
  return (
    // Non-modal: the page stays readable to assistive tech while the menu is open.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          data-testid="theme-selector-full"
          className="sc-btn"
          aria-label={`Theme: ${theme.name}. Choose a theme`}
        >
          <span aria-hidden="true">[</span>
          <span>Theme: {theme.name}</span>
          <span aria-hidden="true">▾ ]</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="sc-panel z-50 min-w-64 p-1 font-mono text-sm text-fg"
        >
          <DropdownMenu.Label className="px-3 py-2 text-xs tracking-[0.2em] text-muted uppercase">
            {'// Select display profile'}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="mx-1 mb-1 h-px bg-border" />
          <DropdownMenu.RadioGroup
            value={themeId}
            onValueChange={(value) => setTheme(parseThemeId(value))}
          >
            {themes.map((option) => (
              <DropdownMenu.RadioItem
                key={option.id}
                value={option.id}
                data-testid={`theme-option-${option.id}`}
                className="flex cursor-pointer items-center gap-3 px-3 py-2 tracking-wider uppercase outline-none select-none data-[highlighted]:bg-primary/15 data-[highlighted]:text-primary data-[state=checked]:text-primary"
              >
                <span aria-hidden="true" className="w-3 text-primary">
                  <DropdownMenu.ItemIndicator>▸</DropdownMenu.ItemIndicator>
                </span>
                <span className="flex-1">{option.name}</span>
                <PaletteDots theme={option} />
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
