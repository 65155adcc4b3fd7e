/**
 * The landing feature's front door (docs/architecture.md, "Client layers"): no other feature imports
 * from it. The app loads its pages lazily by path (app/App.tsx).
 */
export {};
