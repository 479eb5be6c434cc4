/** A build was made for one public URL and is about to be served under another. */
export class SiteUrlMismatchError extends Error {
  override name = "SiteUrlMismatchError";
}

/**
 * Every document of a build carries its public URL (feeds' self links, permalinks, the hub), so a
 * build made for another URL must not be served. Throws a message that says how to rebuild.
 */
export function assertBuiltFor(builtFor: string, siteUrl: string, distDir: string): void {
  if (builtFor === siteUrl) return;
  throw new SiteUrlMismatchError(
    `${distDir} was built for ${builtFor}, but this server's public URL is ${siteUrl}. ` +
      `Rebuild for it (SITE_URL=${siteUrl} npm run build), or serve with SITE_URL=${builtFor}.`,
  );
}

/**
 * A warning when a build is about to replace one made for another public URL without SITE_URL
 * being set: most often `npm run build` in one terminal while `npm start` serves another port.
 */
export function replacedBuildWarning(previousSiteUrl: string | undefined, siteUrl: string, explicit: boolean): string {
  if (explicit || previousSiteUrl === undefined || previousSiteUrl === siteUrl) return "";
  return (
    `Warning: the previous build was for ${previousSiteUrl}; this one is for ${siteUrl} because SITE_URL is not set. ` +
    `A server for ${previousSiteUrl} will not serve it: rebuild with SITE_URL=${previousSiteUrl} npm run build.`
  );
}
