/**
 * What a form field is, for the guards: a password (shown or not), PIN or one-time code; a payment
 * card's number, security code or expiry. Judged from the attributes the content script reports
 * (content-scripts/details.ts) and the field's label, in several languages. Labels are folded as
 * the text rules' phrases are (foldGuardText, fold-text.ts: a zero-width space, full-width letters,
 * look-alike letters, accents or Traditional characters do not hide "Card number" or "密碼"), and
 * so are the label patterns' letters outside ASCII ("contraseña" is written once and matches
 * "Contrasena" too).
 */

import { dropInvisible, foldGuardText } from '../fold-text';

/** A form field as the content script sees it (all optional, all short). */
export interface FieldInfo {
  tag?: string;
  type?: string;
  autocomplete?: string;
  name?: string;
  id?: string;
  inputmode?: string;
  /** its label, aria-label or placeholder */
  label?: string;
}

/** The form a field is in: its default submit button's visible text (what Enter clicks) and its fields. */
export interface FormInfo {
  submit: string | null;
  fields: FieldInfo[];
}

/** An attribute's value (autocomplete, inputmode): lower case, spaces collapsed. */
const norm = (s: string | undefined) => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

/** A pattern whose letters outside ASCII are folded as labels are (regex syntax is all ASCII, so it stays as written). */
const folded = (re: RegExp) => new RegExp(re.source.replace(/\P{ASCII}+/gu, (run) => foldGuardText(run).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')), re.flags);

/** name / id split into words: "newPassword" -> "new password", "cc_csc" -> "cc csc". */
function words(s: string | undefined): string {
  return ` ${foldGuardText(dropInvisible((s ?? '').normalize('NFKC')).replace(/([a-z])([A-Z])/g, '$1 $2')).replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

/** The label, folded, without its trailing decoration: "Password *" and "Password:" are "password". */
function bareLabel(s: string | undefined): string {
  return foldGuardText(s ?? '').replace(/[*:()\s]+$/u, '').replace(/^[*\s]+/, '').trim();
}

const PASSWORD_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code)\b/;
/** autocomplete tokens that say the field is something else (a postal code, an e-mail, a name…) */
const OTHER_AUTOCOMPLETE = /\b(postal-code|email|username|tel|name|given-name|family-name|street-address|address-line\d|country|bday|url|organization|cc-[a-z-]+)\b/;
/** name / id words of a password, PIN or one-time code field */
const PASSWORD_NAME = folded(/ (password|passwd|passwort|kennwort|pwd|pass|passcode|passphrase|pin|otp|totp|mfa|2fa|one time code|onetimecode|otc|verification code|verify code|verifycode|verificationcode|auth code|authcode|sms code|smscode|mdp|motdepasse|contrasena|contraseña) /);
/** …but not these, which are about a password without being one */
const NOT_PASSWORD_NAME = folded(/ (hint|reminder|question|forgot|reset|strength|policy|email|username|login name|expiry|expires|pincode|pin code|zip|postal|postcode) /);

/** label words of a password, PIN or one-time code field, in several languages */
const PASSWORD_LABEL = folded(/(?<![\p{L}\p{N}])(password|passcode|passphrase|passwort|kennwort|mot de passe|contraseña|pin|one-time code|one time code|one-time password|otp|verification code|authentication code|2fa code|security pin|bestätigungscode|einmalcode|code de vérification|código de verificación|código de verificação)(?![\p{L}\p{N}])|密码|密碼|验证码|驗證碼|动态码|口令|パスワード|暗証番号|認証コード|確認コード/u);
/** …and labels that are about a password without being one ("Password hint", "Forgot password?", an Indian "PIN code") */
const NOT_PASSWORD_LABEL = folded(/hint|forgot|lost|strength|requirement|policy|protected|\?|？|pin ?code|pincode|提示|忘记|忘記|强度|ヒント|忘れ|vergessen|oublié|olvidad|indice|pista/u);
/** a numeric field with a code-like label: an OTP box ("Enter the code", "6-digit code") */
const CODE_LABEL = folded(/(^|\b)(code|codes|pin)\b|验证码|驗證碼|码|コード|código|bestätigung/);
const NOT_CODE_LABEL = folded(/postal|post code|postcode|zip|area|country|promo|coupon|discount|gift|voucher|tracking|referral|invite|邀请|邮编|郵便|优惠|クーポン|postleitzahl|code postal|código postal/);

export function isPasswordField(f: FieldInfo | undefined, label: string | undefined): boolean {
  if (!f && !label) return false;
  if (f?.type === 'password') return true;
  const ac = norm(f?.autocomplete);
  if (PASSWORD_AUTOCOMPLETE.test(ac)) return true;
  if (f?.tag && f.tag !== 'input') return false;
  if (f?.type && !['text', 'tel', 'number', 'search', ''].includes(f.type)) return false;
  if (OTHER_AUTOCOMPLETE.test(ac)) return false;
  const l = bareLabel(label ?? f?.label);
  if (PASSWORD_LABEL.test(l) && !NOT_PASSWORD_LABEL.test(l)) return true;
  for (const n of [f?.name, f?.id]) {
    const w = words(n);
    if (PASSWORD_NAME.test(w) && !NOT_PASSWORD_NAME.test(w)) return true;
  }
  if (norm(f?.inputmode) === 'numeric' && CODE_LABEL.test(l) && !NOT_CODE_LABEL.test(l)) return true;
  return false;
}

const CARD_AUTOCOMPLETE = /\bcc-(number|csc|exp|exp-month|exp-year|name|type)\b/;
const CARD_NAME = folded(/ (card|cardnumber|card number|card no|cardno|ccnum|cc num|ccnumber|cc number|cc no|creditcard|credit card|cvc|cvv|cvv2|cvc2|ccv|csc|cc csc|cc cvv|card code|expiry|expiration|exp date|expdate|cc exp|card exp|exp month|exp year|expiry month|expiry year|security code|securitycode|cardholder) /);
const NOT_CARD_NAME = folded(/ (gift|giftcard|loyalty|member|membership|library|id card|idcard|business|passport|document|license|licence|sim|report) /);
const CARD_LABEL = folded(/card number|credit card|debit card|name on card|cardholder|\bcvv\b|\bcvc\b|\bccv\b|\bcsc\b|security code|expiry|expiration date|exp\. date|mm ?\/ ?yy|卡号|信用卡|银行卡|借记卡|有效期|安全码|cvn|カード番号|クレジットカード|有効期限|セキュリティコード|kartennummer|kreditkarte|karteninhaber|ablaufdatum|gültig bis|prüfnummer|numéro de carte|carte bancaire|carte de crédit|date d'expiration|cryptogramme|número de tarjeta|tarjeta de crédito|fecha de caducidad|fecha de vencimiento|titular de la tarjeta/);
const NOT_CARD_LABEL = folded(/gift card|giftcard|loyalty|membership|library card|id card|礼品卡|会员卡|ギフトカード|geschenkkarte|carte cadeau|tarjeta regalo|passport|document/);

export function isCardField(f: FieldInfo | undefined, label: string | undefined): boolean {
  if (!f && !label) return false;
  const ac = norm(f?.autocomplete);
  if (CARD_AUTOCOMPLETE.test(ac)) return true;
  if (f?.type && ['hidden', 'submit', 'button', 'checkbox', 'radio', 'file', 'email', 'password', 'search', 'url'].includes(f.type)) return false;
  if (ac && OTHER_AUTOCOMPLETE.test(ac)) return false;
  const l = foldGuardText(label ?? f?.label ?? '');
  if (CARD_LABEL.test(l) && !NOT_CARD_LABEL.test(l)) return true;
  for (const n of [f?.name, f?.id]) {
    const w = words(n);
    if (CARD_NAME.test(w) && !NOT_CARD_NAME.test(w)) return true;
  }
  return false;
}
