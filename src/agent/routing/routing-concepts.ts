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
music: music song songs playlist play singer album listen | 音乐 歌曲 歌 播放 歌单 放一首 听歌 轻音乐 来一首 点一首 听听
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
stock: stock stocks share shares ticker market trading nasdaq index | 股票 股价 行情 股市 大盘 A股 港股 株価 指数 上证 深证 沪指 成指 创业板 涨停 跌停
currency: currency currencies exchange dollar dollars euro euros pound pounds yen yuan rmb convert | 汇率 货币 换算 美元 欧元 英镑 日元 人民币 兑换 換算
flight: flight flights plane airline airport ticket tickets fly | 航班 机票 飞机 航空 飞往 飞
hotel: hotel hotels room stay accommodation hostel booking book | 酒店 宾馆 住宿 旅馆 订房 民宿 住的地方 ホテル
train: train trains railway rail station timetable seats bullet | 火车 高铁 动车 列车 车次 余票 车票 铁路 电車
map: map nearby near around restaurant restaurants cafe coffee shop attraction place places location | 地图 附近 周边 周围 餐厅 饭店 咖啡 景点 好吃 地方 位置
coach: coach coaches | 汽车票 大巴 客车 长途车 长途汽车 汽车站 客运 班车
route: route directions navigation navigate drive driving walk walking subway transit bus get | 路线 导航 怎么走 开车 步行 地铁 公交 坐车 路
unit: unit units convert conversion kilometer kilometers mile miles meter meters kilogram pound celsius fahrenheit inch | 单位 换算 公里 英里 米 千克 公斤 斤 英寸 华氏 摄氏
image: image images picture pictures photo photos draw drawing illustration paint generate | 图片 图像 照片 画 插画 绘制 生成图 画图 图 画像
speech: audio voice recording transcribe transcription speech dictate | 录音 语音 音频 转写 听写 转成文字 音声
speak: speak read aloud tts voice | 朗读 读出来 念 播报 语音
chart: chart charts graph plot visualize bar line | 图表 柱状图 折线图 饼图 画成 可视化 展示
delivery: package parcel shipment delivery tracking courier | 快递 包裹 物流 运单 单号 配送 寄
recipe: recipe recipes cook cooking dish dishes ingredient ingredients bake | 菜谱 食谱 做法 怎么做 做菜 烹饪 食材 料理 怎么炒 怎么煮 怎么炖 怎么烧
metrics: metrics monitoring prometheus cpu memory usage latency server servers | 监控 指标 使用率 内存 服务器 cpu
issue: issue issues bug bugs github repository repo ticket | 问题单 缺陷 仓库 bug 提个
dictionary: dictionary definition meaning mean pronounce pronounced pronunciation word | 词典 字典 释义 意思 读音 怎么读 含义
sports: sports score scores game match won win team league cup final | 比赛 比分 赛果 球赛 谁赢了 联赛 决赛 体育
home: light lights lamp air conditioner ac thermostat switch turn device devices | 灯 空调 开关 家电 智能家居 关了 打开 调到
video: video videos youtube tutorial series episode | 视频 油管 教程 动画 电视剧 连续剧 动漫 综艺 番剧
url: url link links website webpage page http https | 网址 链接 网页 网站
knowledge: internal docs handbook policy manual knowledge base wiki company | 知识库 内部文档 手册 制度 公司 规定
person: who invented founder author created | 谁发明 发明 创始人 作者 是谁
travel: trip travel itinerary tour sightseeing plan visit | 旅行 旅游 行程 出游 游玩 规划 攻略 三天
health: health illness disease diseases symptom symptoms sick doctor medicine medical treatment cure | 健康 疾病 生病 症状 治疗 怎么治 调理 吃什么药 医生 感冒 发烧 炎 病 症 疼 痛 咳嗽 过敏 感染 中毒 伤风 受伤 伤口 溃疡 失眠 头晕 腹泻 便秘 血压 血糖 癌 疹
poetry: poem poems poetry poet verse verses | 诗 唐诗 宋词 古诗 诗句 下一句 诗人
tv: tv television channel channels programme broadcast | 电视 频道 电视台 卫视 央视 cctv 节目 直播 播出 首播 重播 联播 节目表
radio: radio fm station stations | 广播 电台 调频 交通台 fm
lottery: lottery jackpot draw winning | 彩票 开奖 中奖 双色球 大乐透 七星彩 选5 福彩 体彩
riddle: riddle riddles puzzle puzzles | 谜语 字谜 灯谜 谜底 脑筋急转弯 猜谜
contacts: contact contacts phonebook addressbook | 通讯录 联系人 电话号码 号码 联系方式 手机号 的电话 电话是多少
phone: call calls phone dial telephone | 打电话 拨打 呼叫 电话 拨号 打给
sms: sms text texting | 短信 发信息 信息
app: app apps application applications launch install | 应用 软件 app 客户端 手机上 播放器 浏览器 相册 图库 相机 应用商店 下载 安装
novel: novel novels fiction book books ebook ebooks | 小说 电子书 几本书 看书 读书
website: website websites site homepage | 网站 官网 网页 上网 主页
joke: joke jokes funny | 笑话 段子 搞笑
story: story stories tale tales | 故事 童话
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

/** Each Latin word to the concepts it names (a word may name several). */
const BY_WORD = new Map<string, string[]>();
for (const concept of CONCEPTS) {
  for (const word of concept.latin) BY_WORD.set(word, [...(BY_WORD.get(word) ?? []), concept.id]);
}
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;

/**
 * The `#concept` tokens a text names: a token names a concept when it is one of the concept's words,
 * or starts with one of four letters or more and adds at most three ("forecasts", "raining"); CJK words
 * are found anywhere in the text, so segmentation cannot hide them.
 */
export function conceptTokens(text: string, tokens: readonly string[]): string[] {
  const out = new Set<string>();
  for (const token of tokens) {
    for (let cut = 0; cut <= 3 && token.length - cut >= (cut === 0 ? 1 : 4); cut++) {
      for (const id of BY_WORD.get(cut === 0 ? token : token.slice(0, -cut)) ?? []) out.add(id);
    }
  }
  if (HAS_CJK.test(text)) {
    const lower = text.toLowerCase();
    for (const concept of CONCEPTS) if (concept.cjk.some((w) => lower.includes(w))) out.add(concept.id);
  }
  return [...out];
}
