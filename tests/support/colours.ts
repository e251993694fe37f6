import type { Page } from "puppeteer-core";
import type { Box } from "./pixels.ts";

/**
 * The colour most pixels inside each box of an image (PNG or JPEG) have (the median of each
 * channel), decoded by Chromium in `page` (any page; its document is replaced).
 *
 * @example
 * ```ts
 * const [under] = await medianColours(page, shot.bytes, "image/png", [{ x: 10, y: 10, width: 8, height: 8 }]);
 * ```
 */
export async function medianColours(
  page: Page,
  image: Uint8Array,
  mime: string,
  boxes: readonly Box[],
): Promise<[number, number, number, number][]> {
  await page.goto("about:blank");
  const url = `data:${mime};base64,${
    btoa(Array.from(image, (b) => String.fromCharCode(b)).join(""))
  }`;
  return await page.evaluate(
    async (url: string, boxes: readonly Box[]) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      return boxes.map((box) => {
        const { data } = g.getImageData(box.x, box.y, box.width, box.height);
        const channel = (c: number) => {
          const values: number[] = [];
          for (let i = c; i < data.length; i += 4) values.push(data[i]!);
          values.sort((a, b) => a - b);
          return values[values.length >> 1]!;
        };
        return [channel(0), channel(1), channel(2), 1] as [number, number, number, number];
      });
    },
    url,
    boxes,
  );
}
