/**
 * A fixture-server route that answers `/download/NAME` with `body` as an attachment, so the
 * browser downloads it as `NAME`.
 *
 * @example
 * ```ts
 * await using site = startFixtureServer({ routes: [download("report.csv", "a,b\n")] });
 * ```
 */
export function download(name: string, body: string) {
  return (_req: Request, url: URL): Response | undefined =>
    url.pathname === `/download/${name}`
      ? new Response(body, {
        headers: {
          "content-type": "text/csv",
          "content-disposition": `attachment; filename="${name}"`,
        },
      })
      : undefined;
}
