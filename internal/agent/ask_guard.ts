import type { BrowserState } from "../entity/mod.ts";
import { describeTarget } from "../tools/mod.ts";

/** Questions that ask for a password, a PIN or a one-time code, in several languages. */
const SECRET_QUESTION = new RegExp(
  [
    "(?<![\\p{L}])(?:password|passphrase|passcode|pin(?: code)?|one[- ]time (?:code|password|passcode)|otp|2fa|two[- ]factor|mfa|verification code|security code|auth(?:entication|enticator)? code|sms code|login code|cvv|cvc)(?![\\p{L}])",
    "(?<![\\p{L}])(?:пароль|пароля|пин-код|код подтверждения|одноразовый код|код из смс|код из sms|passwort|kennwort|bestätigungscode|einmalcode|mot de passe|code de vérification|contraseña|código de verificación|senha|código de verificação|codice di verifica|hasło|kod weryfikacyjny|wachtwoord|verificatiecode|şifre|doğrulama kodu)(?![\\p{L}])",
    "密码|验证码|パスワード|認証コード|確認コード",
  ].join("|"),
  "iu",
);

/**
 * True when an `ask_user` question asks for a password or a one-time code: those are never
 * asked for (the answer would pass through prompts and logs).
 *
 * @example
 * ```ts
 * asksForSecret("What is your password?"); // true
 * asksForSecret("Which colour do you want?"); // false
 * ```
 */
export function asksForSecret(question: string): boolean {
  return SECRET_QUESTION.test(question);
}

/**
 * What the user is told instead: type it yourself into the numbered field in the browser. The
 * field is the one the question names (`[12]`), else the first password or code field on the page.
 */
export function typeItYourself(question: string, state: BrowserState): string {
  const named = /\[(\d+)\]/.exec(question)?.[1];
  let id = named === undefined ? undefined : Number(named);
  if (id === undefined) {
    for (const line of state.lines) {
      if (line.kind !== "element") continue;
      const el = line.element;
      const text = `${el.label} ${el.attrs.join(" ")}`;
      if (el.attrs.includes("type=password") || asksForSecret(text) || /one-time-code/.test(text)) {
        id = el.id;
        break;
      }
    }
  }
  const field = id === undefined
    ? "the field that asks for it"
    : `field ${describeTarget(state, id)}`;
  return `The page asks for a password or a one-time code. The agent never asks for these: type it yourself into ${field} in the browser window.`;
}
