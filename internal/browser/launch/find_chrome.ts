import { ConfigError } from "../../entity/mod.ts";

const KNOWN_PATHS: Record<string, string[]> = {
  linux: [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
    "/usr/bin/microsoft-edge",
  ],
  darwin: [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
  ],
  windows: [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
  ],
};

/** What a Chromium-based browser's `--version` says it is. */
const BROWSER_NAMES = /chrom|edge|brave|opera|vivaldi|yandex|thorium/i;

/** Program names looked for in `PATH`, in order. */
const PATH_NAMES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "chrome",
  "microsoft-edge",
];

const INSTALL_HINT: Record<string, string> = {
  linux: "install one with `sudo apt-get install -y chromium` (Debian/Ubuntu)",
  darwin: "install Google Chrome or run `brew install --cask chromium`",
  windows: "install Google Chrome from google.com/chrome",
};

/** Where {@link findChrome} looks besides an explicit path. */
export interface ChromeSearch {
  /** The platform (default: this one). */
  os?: string;
  /** `PATH`: searched after the usual install locations. */
  searchPath?: string;
}

/**
 * Finds a Chromium-based browser: the explicit path (flag, then `CHROME_PATH`), else the
 * usual install locations of the platform, else the programs `chromium`, `google-chrome`, …
 * in `PATH`. An explicit path must be an executable file.
 *
 * @example
 * ```ts
 * const path = findChrome(undefined, { searchPath: "/usr/local/bin:/usr/bin" }); // "/usr/bin/chromium" on Debian
 * ```
 */
export function findChrome(explicit: string | undefined, search: ChromeSearch = {}): string {
  const os = search.os ?? Deno.build.os;
  if (explicit) {
    const problem = notExecutable(explicit, os);
    if (problem === "no such file") {
      throw new ConfigError(
        `Chrome not found at "${explicit}": fix --chrome or CHROME_PATH, or unset it to search the usual places`,
      );
    }
    if (problem) {
      throw new ConfigError(
        `"${explicit}" is not a working Chromium (${problem}): fix --chrome or CHROME_PATH, or unset it to search the usual places`,
      );
    }
    return explicit;
  }
  for (const path of KNOWN_PATHS[os] ?? []) if (!notExecutable(path, os)) return path;
  const sep = os === "windows" ? ";" : ":";
  const ext = os === "windows" ? ".exe" : "";
  for (const dir of (search.searchPath ?? "").split(sep).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      const path = `${dir}${os === "windows" ? "\\" : "/"}${name}${ext}`;
      if (!notExecutable(path, os)) return path;
    }
  }
  throw new ConfigError(
    `No Chrome or Chromium found in the usual places or PATH: ${
      INSTALL_HINT[os] ?? "install Chromium"
    }, or pass --chrome PATH`,
  );
}

/**
 * Checks that a browser runs: `PATH --version` must exit 0 within 10 s and print the version
 * of a Chromium-based browser (`Chromium 130.0…`, `Google Chrome …`, `Microsoft Edge …`). Throws a {@link ConfigError} saying it "is not a working Chromium" otherwise, so a
 * wrong `--chrome` fails before anything starts.
 *
 * @example
 * ```ts
 * await checkChrome("/bin/false"); // throws: "/bin/false" is not a working Chromium …
 * ```
 */
export async function checkChrome(path: string): Promise<void> {
  const fail = (why: string) =>
    new ConfigError(
      `"${path}" is not a working Chromium (${why}): fix --chrome or CHROME_PATH, or unset it to search the usual places`,
    );
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(path, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(10_000),
    }).output();
  } catch (error) {
    throw fail(
      error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error),
    );
  }
  const said = new TextDecoder().decode(out.stdout).trim().split("\n")[0]!;
  if (!out.success) throw fail(`"--version" exited with ${out.code}`);
  if (!/\d+\.\d+/.test(said)) throw fail(`"--version" printed no version`);
  if (!BROWSER_NAMES.test(said)) {
    throw fail(`"--version" names no Chromium-based browser: "${said.slice(0, 60)}"`);
  }
}

/** Why a path is no executable file, or undefined when it is one. */
function notExecutable(path: string, os: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? "no such file" : "cannot be read";
  }
  if (!info.isFile) return "not a file";
  if (os !== "windows" && info.mode !== null && (info.mode & 0o111) === 0) {
    return "not executable";
  }
  return undefined;
}
