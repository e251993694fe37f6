/** A Chromium started by a test with a DevTools port, for `--cdp-url` runs. */
export interface RemoteChromium extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`, what `--cdp-url` takes. */
  url: string;
  port: number;
  pid: number;
}

/**
 * Starts headless Chromium on a free DevTools port with a fresh profile, with `flags` added to
 * its command line; disposing kills it and removes the profile.
 *
 * @example
 * ```ts
 * await using chrome = await startRemoteChromium();
 * await runCli({ args: ["--cdp-url", chrome.url, "task"], env });
 * ```
 */
export async function startRemoteChromium(flags: string[] = []): Promise<RemoteChromium> {
  const profile = await Deno.makeTempDir({ prefix: "ba-cdp-" });
  const chrome = new Deno.Command("/usr/bin/chromium", {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--no-first-run",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      ...flags,
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stop = async () => {
    chrome.kill("SIGKILL");
    await chrome.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {/* best effort */});
  };
  try {
    const port = Number(new URL(await devtoolsUrl(chrome.stderr)).port);
    return { url: `http://127.0.0.1:${port}`, port, pid: chrome.pid, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function devtoolsUrl(stderr: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stderr) {
    text += decoder.decode(chunk);
    const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
    if (m) {
      stderr.cancel().catch(() => {/* the rest of the log is not needed */});
      return m[1]!;
    }
  }
  throw new Error(`Chromium did not print its DevTools URL:\n${text}`);
}
