import { ConfigError } from "../entity/mod.ts";

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

const INSTALL_HINT: Record<string, string> = {
  linux: "install one with `sudo apt-get install -y chromium` (Debian/Ubuntu)",
  darwin: "install Google Chrome or run `brew install --cask chromium`",
  windows: "install Google Chrome from google.com/chrome",
};

/**
 * Finds a Chromium-based browser: the explicit path (flag, then `CHROME_PATH`), else the
 * usual install locations of the platform.
 *
 * @example
 * ```ts
 * const path = findChrome(undefined); // "/usr/bin/chromium" on Debian
 * ```
 */
export function findChrome(explicit: string | undefined, os: string = Deno.build.os): string {
  if (explicit) {
    if (!isFile(explicit)) {
      throw new ConfigError(
        `Chrome not found at "${explicit}": fix --chrome or CHROME_PATH, or unset it to search the usual places`,
      );
    }
    return explicit;
  }
  for (const path of KNOWN_PATHS[os] ?? []) if (isFile(path)) return path;
  throw new ConfigError(
    `No Chrome or Chromium found: ${INSTALL_HINT[os] ?? "install Chromium"}, or pass --chrome PATH`,
  );
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    // Missing or unreadable: not a usable browser.
    return false;
  }
}
