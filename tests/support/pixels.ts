import type { Page } from "puppeteer-core";

/** A rectangle of an image, in CSS pixels of the page it pictures (device scale 1). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The share (0–1) of the pixels inside `box` of an image (PNG or JPEG) that are near black,
 * decoded by Chromium in `page` (any page; its document is replaced).
 *
 * @example
 * ```ts
 * const dark = await darkShare(page, shot.bytes, "image/png", { x: 10, y: 10, width: 80, height: 20 });
 * ```
 */
export async function darkShare(
  page: Page,
  image: Uint8Array,
  mime: string,
  box: Box,
): Promise<number> {
  await page.goto("about:blank");
  const url = `data:${mime};base64,${
    btoa(Array.from(image, (b) => String.fromCharCode(b)).join(""))
  }`;
  return await page.evaluate(
    async (url: string, box: Box) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const { data } = g.getImageData(box.x, box.y, box.width, box.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i]! < 60 && data[i + 1]! < 60 && data[i + 2]! < 60) dark++;
      }
      return dark / (data.length / 4);
    },
    url,
    box,
  );
}

/**
 * Where the text of the element `selector` shows (in the main frame, or in the first `<iframe>`
 * with `inFrame`; a shadow root's host's text with `inShadow`), inset by 2 px so that anti-aliased
 * edges do not count: for {@link darkShare}.
 */
export async function textBox(
  page: Page,
  selector: string,
  where: { inFrame?: boolean; inShadow?: boolean } = {},
): Promise<Box> {
  const frame = where.inFrame ? page.mainFrame().childFrames()[0]! : page.mainFrame();
  const offset = where.inFrame
    ? await page.$eval("iframe", (f) => {
      const r = f.getBoundingClientRect();
      return { x: r.x + f.clientLeft, y: r.y + f.clientTop };
    })
    : { x: 0, y: 0 };
  const r = await frame.evaluate(
    (selector: string, inShadow: boolean) => {
      const host = document.querySelector(selector)!;
      const range = document.createRange();
      range.selectNodeContents(inShadow ? host.shadowRoot! : host);
      const { x, y, width, height } = range.getBoundingClientRect();
      return { x, y, width, height };
    },
    selector,
    where.inShadow ?? false,
  );
  return {
    x: Math.ceil(offset.x + r.x) + 2,
    y: Math.ceil(offset.y + r.y) + 2,
    width: Math.floor(r.width) - 4,
    height: Math.floor(r.height) - 4,
  };
}
