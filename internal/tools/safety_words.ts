/**
 * Words that mark destructive actions, in English, Russian, German, French, Spanish, Portuguese,
 * Italian, Polish, Dutch, Turkish, Chinese and Japanese. Matched case-insensitively as whole
 * words (CJK as substrings) against an element's label, the text around it, and the page.
 */

/** What kind of harm an action may do; `tool`: a tool marked destructive (a module's). */
export type RiskCategory = "payment" | "deletion" | "sending" | "account" | "tool";

/** Builds a whole-word matcher from word patterns, plus CJK substrings. */
function words(latin: string[], cjk: string[] = []): RegExp {
  const parts = [`(?<![\\p{L}\\p{N}])(?:${latin.join("|")})(?![\\p{L}\\p{N}])`];
  if (cjk.length > 0) parts.push(cjk.join("|"));
  return new RegExp(parts.join("|"), "iu");
}

/** Labels that perform the action by themselves ("Place order", "Delete", "Send"). */
export const ACTION_WORDS: Record<Exclude<RiskCategory, "account" | "tool">, RegExp> = {
  payment: words([
    "pay(?: now)?",
    "buy(?: now| it now)?",
    "purchase",
    "place (?:your |my |the )?order",
    "(?:complete|confirm|submit|finish) (?:your |my |the )?(?:order|purchase|payment)",
    "checkout and pay",
    "оплатить",
    "купить",
    "заказать",
    "оформить заказ",
    "подтвердить (?:заказ|оплату|покупку)",
    "kaufen",
    "jetzt kaufen",
    "bezahlen",
    "(?:zahlungspflichtig |kostenpflichtig )?bestellen",
    "payer",
    "acheter",
    "commander",
    "passer (?:la )?commande",
    "valider (?:la |ma )?commande",
    "pagar",
    "comprar",
    "realizar (?:el )?pedido",
    "confirmar (?:el |o )?(?:pedido|compra|pago|pagamento)",
    "finalizar (?:la |a )?compra",
    "fazer (?:o )?pedido",
    "paga(?:re)?",
    "acquista(?:re)?",
    "ordina(?:re)?",
    "conferma (?:l'|il )?(?:ordine|acquisto|pagamento)",
    "zapłać",
    "kup(?:uję)?",
    "zamów",
    "betalen",
    "kopen",
    "nu kopen",
    "öde",
    "satın al",
  ], ["支付", "付款", "购买", "立即购买", "下单", "提交订单", "購入", "注文を確定", "支払"]),
  deletion: words([
    "delete",
    "erase",
    "destroy",
    "wipe",
    "remove (?:my |the |this )?account",
    "remove permanently",
    "permanently remove",
    "(?:cancel|close|terminate|deactivate) (?:my |the |your |this )?(?:account|subscription|membership|order)",
    "deactivate",
    "удалить",
    "удалите",
    "удаление",
    "стереть",
    "löschen",
    "endgültig entfernen",
    "konto (?:schließen|kündigen|löschen)",
    "kündigen",
    "supprimer",
    "effacer",
    "eliminar",
    "borrar",
    "suprimir",
    "excluir",
    "apagar",
    "elimina(?:re)?",
    "cancella(?:re)?",
    "usuń",
    "verwijderen",
    "sil",
  ], ["删除", "注销", "削除"]),
  sending: words([
    "send(?: now| message| email| it)?",
    "post(?: it| now| comment| reply| message)?",
    "publish",
    "tweet",
    "transfer(?: money| funds)?",
    "отправить",
    "опубликовать",
    "переслать",
    "senden",
    "absenden",
    "veröffentlichen",
    "posten",
    "überweisen",
    "envoyer",
    "publier",
    "enviar",
    "publicar",
    "invia(?:re)?",
    "pubblica(?:re)?",
    "wyślij",
    "opublikuj",
    "verzenden",
    "versturen",
    "gönder",
    "yayınla",
  ], ["发送", "发布", "发表", "送信", "投稿"]),
};

/** Labels that commit to what the surrounding text asks ("Yes", "OK", "Confirm", "Submit"). */
const COMMIT_LATIN = [
  "yes",
  "ok",
  "okay",
  "confirm",
  "submit",
  "i'?m sure",
  "i understand",
  "да",
  "подтвердить",
  "отправить форму",
  "ja",
  "bestätigen",
  "oui",
  "confirmer",
  "valider",
  "sí",
  "si",
  "sim",
  "confirmar",
  "aceptar",
  "conferma",
  "tak",
  "potwierdź",
  "bevestigen",
  "evet",
  "onayla",
];
const COMMIT_CJK = ["确定", "确认", "是的", "はい", "確認"];

const STEP_LATIN = [
  "proceed",
  "continue",
  "продолжить",
  "weiter",
  "continuer",
  "continuar",
  "procedi",
];

/** Labels that confirm whatever the surrounding text asks ("Yes", "OK", "Submit", "Continue"). */
export const CONFIRM_WORDS = words([...COMMIT_LATIN, ...STEP_LATIN], COMMIT_CJK);

/** Confirming labels that only move on to a next step ("Continue"): they commit nothing alone. */
export const STEP_WORDS = words(STEP_LATIN);

/** Save-like labels that change account data on account pages. */
export const SAVE_WORDS = words([
  "save(?: changes)?",
  "update",
  "change (?:password|email|e-mail)",
  "apply",
  "сохранить",
  "изменить",
  "speichern",
  "ändern",
  "enregistrer",
  "modifier",
  "guardar",
  "salvar",
  "salva(?:re)?",
  "zapisz",
  "opslaan",
  "kaydet",
], ["保存", "更新"]);

/** Pages about the user's account, settings or security. */
export const ACCOUNT_PAGE = words([
  "account",
  "settings",
  "profile",
  "password",
  "security",
  "аккаунт",
  "учётн\\p{L}*",
  "профиль",
  "настройки",
  "пароль",
  "konto",
  "einstellungen",
  "profil",
  "passwort",
  "compte",
  "paramètres",
  "mot de passe",
  "cuenta",
  "configuración",
  "contraseña",
  "conta",
  "configurações",
  "senha",
  "impostazioni",
  "ustawienia",
  "hasło",
  "instellingen",
  "wachtwoord",
  "hesap",
  "ayarlar",
], ["账户", "帐户", "设置", "密码", "アカウント", "設定", "パスワード"]);

/** Names of the fields a payment form asks for: a card's number, code or expiry, an IBAN. */
export const CARD_FIELD = words([
  "(?:credit |debit )?card number",
  "card no\\.?",
  "name on (?:the )?card",
  "cardholder(?:'s)? name",
  "cvv2?",
  "cvc2?",
  "csc",
  "card (?:security|verification) code",
  "card expir(?:y|ation)(?: date)?",
  "mm ?/ ?yy(?:yy)?",
  "iban",
  "номер карты",
  "kartennummer",
  "prüfnummer",
  "numéro de (?:la )?carte",
  "número de (?:la )?tarjeta",
  "número do cartão",
  "numero (?:di |della )?carta",
  "numer karty",
  "kaartnummer",
  "kart numarası",
], ["卡号", "安全码", "カード番号", "セキュリティコード"]);

/** Words of a total to pay, shown beside an amount ("Total: $249.00", "Итого 1 990 ₽"). */
export const TOTAL_WORDS = words([
  "total",
  "order total",
  "grand total",
  "amount due",
  "(?:amount )?to pay",
  "you pay",
  "итого",
  "к оплате",
  "gesamt(?:summe|betrag|preis)?",
  "zu zahlen",
  "montant(?: total)?",
  "à payer",
  "importe(?: total)?",
  "a pagar",
  "totale",
  "da pagare",
  "razem",
  "do zapłaty",
  "totaal",
  "te betalen",
  "toplam",
  "ödenecek tutar",
], ["合计", "总计", "应付", "合計", "お支払い金額"]);

/** An amount of money: a number beside a currency sign or code (`$249.00`, `1 990 ₽`, `12,50 EUR`). */
export const AMOUNT =
  /[$€£¥₽₹₩₺]\s?\d|\d[\d.,\s\u00a0]*\s?(?:[$€£¥₽₹₩₺]|(?:USD|EUR|GBP|CHF|RUB|PLN|TRY|JPY|CNY|руб|zł|kr)(?![\p{L}]))/iu;

/** URL paths of checkout and payment steps. */
export const PAYMENT_PATH =
  /(?:^|[/_-])(?:checkout|payment|pay|kasse|oformlenie|pago)(?:$|[/_.?-])/i;

/** Labels of fields whose Enter sends a message (chat boxes, comment fields). */
export const MESSAGE_FIELD = words([
  "message",
  "comment",
  "reply",
  "post",
  "tweet",
  "chat",
  "сообщение",
  "комментарий",
  "ответ",
  "nachricht",
  "kommentar",
  "antwort",
  "commentaire",
  "réponse",
  "mensaje",
  "comentario",
  "respuesta",
  "mensagem",
  "comentário",
  "messaggio",
  "commento",
  "wiadomość",
  "komentarz",
  "bericht",
  "reactie",
  "mesaj",
  "yorum",
], ["消息", "评论", "留言", "メッセージ", "コメント"]);

/** Search controls are never destructive. */
export const SEARCH_WORDS = words([
  "search",
  "find",
  "filter",
  "go",
  "поиск",
  "найти",
  "suche",
  "suchen",
  "rechercher",
  "recherche",
  "buscar",
  "pesquisar",
  "cerca",
  "szukaj",
  "zoeken",
  "ara",
], ["搜索", "検索"]);
