/**
 * Traditional Chinese characters read as Simplified ones, for the guards' phrases (guards/words.ts):
 * "立即購買" matches 立即购买, "刪除帳號" matches 删除账号, "回覆" matches 回复. Both the page's text and the
 * phrases go through it, so it only has to cover the characters the phrases hold (every Han
 * character of DEFAULT_PHRASES) and the common words around them; each pair is written
 * Traditional then Simplified. Taken from OpenCC's TSCharacters (and its Taiwan / Hong Kong variant
 * glyphs), with three changes: 帳 and 帐 read as 账 (账号 / 帐号 / 帳號 are one word), 覆 as 复 (回覆 is
 * Taiwan's 回复, "reply"), and 復 / 複 are left alone (回復 means "restore", in Taiwan and in Japanese,
 * not "reply").
 */

const PAIRS = [
  '丟丢 個个 箇个 為为 爲为 舉举 麼么 麽么 買买 價价 優优 會会 傳传 餘余 脩修 儲储 兌兑 關关 冊册 準准',
  '齣出 刪删 動动 單单 卽即 厤历 曆历 歷历 發发 髮发 號号 衕同 嗎吗 員员 迴回 覆复 學学 寶宝 審审 導导',
  '佈布 應应 開开 棄弃 張张 強强 彔录 錄录 録录 徹彻 態态 總总 戶户 釦扣 摺折 報报 擬拟 擇择 換换 蒐搜',
  '數数 時时 闇暗 樣样 覈核 匯汇 彙汇 滙汇 註注 點点 現现 碼码 確确 禮礼 係系 繫系 經经 結结 絕绝 絶绝',
  '繼继 續续 編编 聯联 錶表 計计 訂订 認认 訊讯 記记 論论 設设 証证 證证 評评 請请 誰谁 帐账 帳账 賬账',
  '貨货 購购 貼贴 費费 資资 讚赞 贊赞 贈赠 車车 轉转 載载 輯辑 輸输 運运 選选 郵邮 裏里 裡里 錢钱 銀银',
  '銷销 閉闭 間间 閱阅 閲阅 領领 額额 驗验',
].join(' ').split(' ');

const TO_SIMPLIFIED = new Map(PAIRS.map((p) => {
  const [t, s] = Array.from(p);
  return [t, s] as const;
}));

/** The text with its Traditional characters replaced by Simplified ones (others as they are). */
export function toSimplified(s: string): string {
  return s.replace(/\p{Script=Han}/gu, (c) => TO_SIMPLIFIED.get(c) ?? c);
}
