/**
 * The CORS setup each sync target needs, word for word as docs/sync.md gives it, with this
 * app's origin filled in.
 */

export function s3CorsJson(origin: string): string {
  return JSON.stringify(
    [
      {
        AllowedOrigins: [origin],
        AllowedMethods: ["GET", "PUT", "HEAD"],
        AllowedHeaders: ["*"],
        ExposeHeaders: ["ETag"],
        MaxAgeSeconds: 3000,
      },
    ],
    null,
    2,
  );
}

export function apacheCorsLines(origin: string): string {
  return [
    "# In the <Directory> or <Location> of the WebDAV folder (mod_dav, mod_headers, mod_rewrite):",
    `Header always set Access-Control-Allow-Origin "${origin}"`,
    'Header always set Access-Control-Allow-Methods "GET, PUT, PROPFIND, MKCOL, OPTIONS"',
    'Header always set Access-Control-Allow-Headers "Authorization, Content-Type, Depth"',
    'Header always set Access-Control-Max-Age "3000"',
    "RewriteEngine On",
    "RewriteCond %{REQUEST_METHOD} OPTIONS",
    "RewriteRule ^ - [R=204,L]",
  ].join("\n");
}

export const NEXTCLOUD_CORS_NOTE =
  "Nextcloud and ownCloud answer WebDAV at /remote.php/dav/files/<user>/<folder>/ but send no CORS headers for other sites: add the Apache lines above to the virtual host in front of them (nginx: the same four headers with add_header … always, and return 204 for OPTIONS), and sign in with an app password, not your account password.";
