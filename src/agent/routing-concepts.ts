/**
 * A bilingual table of the concepts tools are usually about, so routing crosses the vocabulary gap
 * between how a tool is described and how a user asks: in either language ("rain" and "下雨" for a
 * tool described as "weather" or "天气"), and between languages (a Chinese question, an English
 * description). Each line is one concept: English words (matched as a word or a word's start when
 * four letters or more), then after `|` Chinese or Japanese words (matched anywhere in the text, so
 * segmentation cannot hide them). Both the tool descriptions and the questions gain a `#concept`
 * token for every concept they name, and BM25 does the rest.
 */
const TABLE = `
weather: weather forecast rain raining rainy snow sunny cloudy windy storm typhoon umbrella humid | 天气 气象 预报 下雨 降雨 雨伞 下雪 晴 阴天 多云 刮风 台风 暴雨 湿度 天気 雨
temperature: temperature degrees celsius fahrenheit hot cold warm | 气温 温度 摄氏 华氏 多热 多冷 冷不冷 热不热 気温
air: air pollution polluted smog pm2 aqi haze | 空气 雾霾 污染 pm2 霾
search: search look lookup google internet online web browse find | 搜索 搜一下 搜一搜 查找 上网 网上 互联网 检索 検索
news: news headline headlines breaking | 新闻 头条 资讯 快讯 ニュース
math: calculate calculation compute math arithmetic expression equation plus minus times multiply divide divided squared sum percent | 计算 算一下 算算 数学 加上 减去 乘以 除以 平方 等于多少 加减乘除 运算 計算
time: time clock date today timezone hour | 时间 几点 日期 几号 今天 时区 星期几 時間
calendar: calendar schedule meeting meetings appointment agenda event events | 日历 日程 会议 安排 预约 约会 行程表
reminder: remind reminder alarm alert notify | 提醒 闹钟 记得 别忘了 叫我
holiday: holiday holidays festival vacation | 节日 节假日 假期 放假 假日 祝日
movie: movie movies film films cinema watch | 电影 影片 片子 看什么片 影院 映画
music: music song songs playlist play singer album | 音乐 歌曲 歌 播放 歌单 放一首 听歌 轻音乐
translate: translate translation translator language english french japanese chinese spanish german say | 翻译 译成 英文 英语 日语 中文 法语 怎么说 翻訳
email: email mail inbox recipient | 邮件 邮箱 发邮件 电子邮件 メール
message: message chat notify group channel webhook post | 消息 群里 通知 群聊 推送 发到
file: file files folder directory document documents path txt | 文件 文件夹 目录 文档 路径 ファイル
read: read open show contents inside view | 读取 读一下 打开 查看 内容 看看
write: write save create store | 写入 保存 新建 创建 存到
command: shell terminal command bash console execute | 命令 终端 命令行 执行 shell
code: code python script program snippet execute run | 代码 程序 脚本 运行 python コード
database: database sql table query orders order records data | 数据库 订单 报价 数据 表格 记录
paper: paper papers article articles research arxiv scientific academic study | 论文 学术 文献 研究 期刊 论文
encyclopedia: encyclopedia wikipedia wiki entry definition knowledge | 百科 维基 词条 知识
stock: stock stocks share shares ticker market trading nasdaq | 股票 股价 行情 股市 大盘 A股 港股 株価
currency: currency currencies exchange dollar dollars euro euros pound pounds yen yuan rmb convert | 汇率 货币 换算 美元 欧元 英镑 日元 人民币 兑换 換算
flight: flight flights plane airline airport ticket tickets fly | 航班 机票 飞机 航空 飞往 飞
hotel: hotel hotels room stay accommodation hostel booking book | 酒店 宾馆 住宿 旅馆 订房 民宿 住的地方 ホテル
train: train trains railway rail station timetable seats bullet | 火车 高铁 动车 列车 车次 余票 车票 铁路 电車
map: map nearby near around restaurant restaurants cafe coffee shop attraction place places location | 地图 附近 周边 周围 餐厅 饭店 咖啡 景点 好吃 地方 位置
route: route directions navigation navigate drive driving walk walking subway transit bus get | 路线 导航 怎么走 开车 步行 地铁 公交 坐车 路
unit: unit units convert conversion kilometer kilometers mile miles meter meters kilogram pound celsius fahrenheit inch | 单位 换算 公里 英里 米 千克 公斤 斤 英寸 华氏 摄氏
image: image images picture pictures photo photos draw drawing illustration paint generate | 图片 图像 照片 画 插画 绘制 生成图 画图 图 画像
speech: audio voice recording transcribe transcription speech dictate | 录音 语音 音频 转写 听写 转成文字 音声
speak: speak read aloud tts voice | 朗读 读出来 念 播报 语音
chart: chart charts graph plot visualize bar line | 图表 柱状图 折线图 饼图 画成 可视化 展示
delivery: package parcel shipment delivery tracking courier | 快递 包裹 物流 运单 单号 配送 寄
recipe: recipe recipes cook cooking dish dishes ingredient ingredients bake | 菜谱 食谱 做法 怎么做 做菜 烹饪 食材 料理
metrics: metrics monitoring prometheus cpu memory usage latency server servers | 监控 指标 使用率 内存 服务器 cpu
issue: issue issues bug bugs github repository repo ticket | 问题单 缺陷 仓库 bug 提个
dictionary: dictionary definition meaning mean pronounce pronounced pronunciation word | 词典 字典 释义 意思 读音 怎么读 含义
sports: sports score scores game match won win team league cup final | 比赛 比分 赛果 球赛 谁赢了 联赛 决赛 体育
home: light lights lamp air conditioner ac thermostat switch turn device devices | 灯 空调 开关 家电 智能家居 关了 打开 调到
video: video videos youtube tutorial | 视频 油管 教程 动画
url: url link links website webpage page http https | 网址 链接 网页 网站
knowledge: internal docs handbook policy manual knowledge base wiki company | 知识库 内部文档 手册 制度 公司 规定
person: who invented founder author created | 谁发明 发明 创始人 作者 是谁
travel: trip travel itinerary tour sightseeing plan visit | 旅行 旅游 行程 出游 游玩 规划 攻略 三天
`;

interface Concept {
  id: string;
  latin: string[];
  cjk: string[];
}

const CONCEPTS: Concept[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [id, rest] = line.split(':');
    const [latin, cjk = ''] = rest.split('|');
    return {
      id: `#${id.trim()}`,
      latin: latin.trim().split(/\s+/).filter(Boolean),
      cjk: cjk.trim().split(/\s+/).filter(Boolean),
    };
  });

const matchesLatin = (token: string, word: string) =>
  token === word || (word.length >= 4 && token.startsWith(word) && token.length - word.length <= 3);

/** The `#concept` tokens a text names: Latin words compared with its tokens, CJK words found in its text. */
export function conceptTokens(text: string, tokens: readonly string[]): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const concept of CONCEPTS) {
    const named =
      concept.cjk.some((w) => lower.includes(w)) || tokens.some((t) => concept.latin.some((w) => matchesLatin(t, w)));
    if (named) out.push(concept.id);
  }
  return out;
}
