/**
 * Whether this is the release build (`npm run package`, docs/release.md): vite.config.ts defines
 * __RELEASE__ true there and false in the build the tests load; anything else that bundles these
 * files (the tests' esbuild harness, vitest) leaves it undefined, which is not a release. Code only
 * the tests use sits behind `if (!RELEASE)`, so the release build leaves it out
 * (scripts/release.ts refuses a build that still has it).
 */
declare const __RELEASE__: boolean | undefined;

export const RELEASE: boolean = typeof __RELEASE__ !== 'undefined' && __RELEASE__;
