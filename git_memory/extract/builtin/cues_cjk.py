"""The rows of the rule lexicon for Chinese (Simplified and Traditional characters), Japanese
and Korean: one row per language and cue, each with the real sentence it was written from
(`lexicon.py` says where they come from; `cue_forms.py` what each form means)."""

from __future__ import annotations

from git_memory.extract.builtin.cue_forms import (
    ADOPT,
    CONVENTION,
    CORRECTION,
    DIRECTIVE,
    HABITUAL,
    HENCEFORTH,
    LANGUAGE,
    NOT_A_RULE,
    OBLIGATION,
    ONE_OFF,
    PREFERENCE,
    PROHIBITION,
    QUESTION,
    STANDING,
    SUBJECT,
    TEAM,
    Cue,
)

# The Hangul syllables whose final consonant is ㅂ (합, 습, 됩): before 니까 they make the
# formal question, not the reason clause.
_B_FINAL = "".join(chr(0xAC00 + 28 * syllable + 17) for syllable in range(19 * 21))
# Chinese verbs that take a question word as their object, two characters each (a
# look-behind is of fixed width): "check whether", "explain how", "no matter what".
_TAKES_A_QUESTION = (
    "检查",
    "檢查",
    "确认",
    "確認",
    "确保",
    "確保",
    "看看",
    "看下",
    "一下",
    "判断",
    "判斷",
    "说明",
    "說明",
    "告诉",
    "告訴",
    "了解",
    "查看",
    "测试",
    "測試",
    "验证",
    "驗證",
    "注明",
    "註明",
    "记录",
    "記錄",
    "不管",
    "无论",
    "無論",
    "不论",
    "不論",
)

# A sentence that holds a word of every time somewhere ("…，以后一律用 let", "每次都要这样"),
# as a look-ahead from its start.
_EVERY_TIME = (
    r"[^。！？]{0,200}?(?:以[后後]|今[后後]|一律|永[远遠]|每次|始[终終]|[总總]是|[务務]必"
    r"|必[须須]|[统統]一)"
)

CJK_CUES: tuple[Cue, ...] = (
    # --- Chinese (Simplified and Traditional characters) ---
    Cue("zh", STANDING, r"一律|[记記]住|牢[记記]|[绝絕]不", "记住：不要提交 .env 文件"),
    Cue(
        "zh",
        STANDING,
        # "remember to always": 记得 alone asks for a step of the task ("记得提交")
        # (not "I recall" nor "I don't remember": 我记得, 不记得, 没记得)
        r"(?<![我不没沒])[记記]得(?:要)?(?:一定|[务務]必|每次|始[终終]|永[远遠])要?(?=\s?\S\S)"
        r"|(?:一定|[务務]必)要?[记記]得(?=\s?\S\S)",
        # a session of a public repository
        "嗯嗯，记得一定要验证数据的完整性",
    ),
    Cue(
        "zh",
        HABITUAL,
        r"始[终終]|[总總]是|每次|永[远遠]|[从從]不(?![同])",
        "请用中文回答。除非用户明确要求其他语言，否则始终使用简体中文回复。",
    ),
    Cue(
        "zh",
        STANDING,
        # a record kept up to date every so often, for as long as the work goes on ("阶段性要
        # 更新": update it at each stage); not a feature that runs so ("定期清理缓存的定时任务",
        # "定期备份的功能"), nor work done only in part ("阶段性完成")
        # asked at the start of a clause, after a request or the file it keeps ("….md阶段性
        # 要更新"), not said of what a system does ("系统每天定期更新汇率")
        r"(?:^|(?<=[，,。；;：:])|(?<=[\u4e00-\u9fff]\s)|(?<=要|[请請]|都)|(?<=[记記]得|需要)"
        r"|(?<=\.[a-z]{2})"
        r"|(?<=\.[a-z]{3}))(?:定期|[阶階]段性)(?:地)?\s?(?:要|都要|需要|[请請])?\s?"
        r"(?:把[^，。！？,]{1,20}?)?"
        r"(?:更新|同步|提交|整理|[记記][录錄]|[写寫](?:进|進|入|到)|[汇匯][报報]|[总總][结結])"
        r"(?![^，。！？,]{0,12}的(?:功能|任[务務]|[脚腳]本|定[时時]|服[务務]|机制|機制))",
        # a session of a public repository
        "并且要加上 current-progress.md阶段性要更新，不然反而变成项目障碍了",
    ),
    Cue(
        "zh",
        STANDING,
        r"(?:提交|推送|合[并併]|部署|[发發]布|上[线線]|commit|push)\S{0,6}?(?:之)?前",
        "遵循 TDD（红→绿→重构）在既定任务顺序下实现功能；"
        "提交前回写文档与变更记录，确保实现与文档一致。",
    ),
    Cue(
        "zh",
        HENCEFORTH,
        # not "after" one step is done (出完以后, 做了以后: what follows is of the task)
        r"(?<![完了过過])以[后後]|今[后後]|[从從][现現]在[开開]始|往[后後]|下次|下回",
        "以后所有的claude skill 保存在我本地个人目录,而非项目目录",
    ),
    Cue(
        "zh",
        HENCEFORTH,
        # after each change of the code, a step asked for ("修改完代码后，记得提交")
        r"(?:改|修改|[写寫]|做|[开開][发發]|完成)完(?:代[码碼]|功能)?(?:之?[后後]|以[后後])?"
        r"[，,]?\s{0,2}(?:要|都要|[记記]得|必[须須]|[务務]必|[请請])",
        # the contributing guide of a public repository
        "修改完代码后，记得提交和推送到 GitHub。",
    ),
    Cue(
        "zh",
        HENCEFORTH,
        # after each piece of work of a kind ("一个单测": any unit test), a step asked for;
        # not after this one (完成这个功能之后), not a request for one ("完成一个页面，要…")
        r"(?:完成|做完|[写寫]完|改完|修改完)(?:一[个個项項]|每[个個项項]|每一[个個项項])"
        r"[^，。！？,]{1,8}?(?:之?[后後]|以[后後])[，,]?\s{0,2}(?:你)?(?:都|就)?"
        r"(?:要|需要|[记記]得|必[须須]|[务務]必|[请請])"
        r"|每(?:完成|做完|[写寫]完|改完)[^，。！？,]{1,10}?[，,]\s{0,2}(?:你)?(?:都|就)"
        r"(?:要|需要|[记記]得|必[须須]|[务務]必)",
        # a session of a public repository
        "需要跑nca命令，根据错误/警告修复问题，之后，你要往自己的的设置写这个命令，在完成一个单测之后要跑一次",
    ),
    Cue(
        "zh",
        STANDING,
        # before a change, a step first ("修改前先读对应文件")
        r"(?:修改|改[动動]|[删刪]除|[动動]手|[写寫]代[码碼]|重构|重構)前[，,]?\s{0,2}"
        r"(?:先|要|[请請]|都|必[须須]|[务務]必)"
        r"(?![^，。！]{0,20}[这這][个個张張条條])",  # not before deleting "this table"
        # the skill file of a public repository
        "修改前先读对应文件了解既有写法，保持风格一致。",
    ),
    Cue(
        "zh",
        DIRECTIVE,
        r"[请請]|不要|[别別]再|必[须須]|[务務]必|不得|[记記]得|[应應](?:[该該]|[当當])"
        r"|我(?:更|比较|比較)?(?:喜欢|喜歡|倾向于|傾向於|偏好)|希望你"
        r"|(?<![想需主重只还還])要(?![求])",
        "中间是否有什么问题,请修复",
    ),
    Cue(
        "zh",
        DIRECTIVE,
        # what is needed from now on ("以后生成的文档需要标记"), not the agent asked for a task
        # of the moment ("以后需要你帮我看一下")
        # 以后 opening its clause (after 加上 when dictated), not "after" a step: "登录以后需要…"
        r"(?:^|[，,。；;：:\s]|加上|[写寫]上|[记記]住)(?:以|今)[后後][，,]?"
        r"(?:(?!可能|也[许許]|或[许許]|如果)[^，。！？,]){0,20}?需要"
        r"(?!你|的|[时時]|[么麼]|再(?!(?:[运運]行|跑|[执執]行)))",
        # a session of a public repository
        "在md加上以后生成的文档需要标记",
    ),
    Cue(
        "zh",
        TEAM,
        r"^(?:我们|我們|团队|團隊|本项目|本項目|这个项目|這個項目|整个项目|整個項目|项目|項目)"
        r"(?:的[^，。,；;\s]{1,6}?)?(?:都|一直|统一|統一)?(?:用|使用|采用|採用|基于|基於)",
        "我们使用 pnpm 作为默认包管理器。",
    ),
    Cue(
        "zh",
        TEAM,
        # what the team's or the project's part is built with (a tool named makes it one)
        r"^(?:我们|我們|本?项目|本?項目)的(?!问题|問題|需求|目标|目標|错误|錯誤|情况|情況|意思|想法"
        r"|计划|計劃|bug)[^，。,；;\s]{1,6}?(?:是|用的是|使用的是)",
        # a design document of a public repository
        "我们的后端是 FastAPI（全异步），httpx 是它的标配 HTTP 客户端。",
    ),
    Cue(
        "zh",
        TEAM,
        # a part of the project's engineering and the tool it goes through: "测试用 pytest"
        r"^(?:测试|測試|单元测试|單元測試|依[赖賴]|包管理|构建|構建|打包|格式化|代[码碼]风格|代碼風格"
        r"|lint|类型检查|類型檢查)(?:都|统一|統一|一律)?(?:用|使用|采用|採用)",
        # the development guide of a public repository
        "测试使用 Pytest；请在 `./backend/tests/` 中修改或新增测试。",
    ),
    Cue(
        "zh",
        PROHIBITION,
        # (不准 "not allowed" before what is forbidden, not "inaccurate" ("会不准", "定位不准导致
        # …", "不准了") nor "can't tell" (说不准, 拿不准))
        r"禁止|[严嚴]禁|不[许許]"
        r"|(?<![会會很太点點较較更算得说說拿看猜])不准(?!\s*$|[确確了的吗嗎呢啊吧，,。！!？?]|导致|導致"
        r"|[会會](?![议議话話计計])|影[响響]|[让讓]|使(?!用))"
        # (before "affect", "let": a prohibition unless what comes first is a reading it would
        # call inaccurate: "重构不准影响现有功能", not "定位不准让用户很困扰", "时间戳都不准影响…")
        r"|(?<![戳位标標据據计計条條测測果值间間度数數])(?<![戳位标標据據计計条條测測果值间間度数數][都也])"
        r"不准(?=影[响響]|[让讓]|使(?!用))"
        r"|切勿|千[万萬](?:不要|[别別])"
        r"|(?:不要|[别別]|不能|不可以)(?:再)?(?:使用|用|修改|改[动動]|[删刪]除|提交|推送|引入|安[装裝]|添加)",
        "禁止使用轮询方式同步数据，MUST 使用 WebSocket 或微信云开发实时数据监听；",
    ),
    Cue(
        "zh",
        PROHIBITION,
        # a step of the project's engineering forbidden with how it is done (on its own,
        # casually), in Chinese or with the English verb typed as is; "avoid using"
        r"(?:不要|[别別])(?:再)?\s?(?:自[动動]|随便|隨便|擅自|私自|直接|自己|主[动動])?"
        r"\s?(?:[动動碰](?![画畫态態作])(?=\s?[^\s它了吧啊。！，,])|[创創]建|新建|生成|[写寫]死"
        r"|合[并併]|部署|(?:git\s)?(?:push|commit|merge|rebase)|install|deploy)"
        r"|(?:不要|[别別])(?:再)?\s?(?:自[动動]|随便|隨便|擅自|私自|直接|自己|主[动動])"
        r"(?:使用|用|修改|改|[删刪](?:除)?|提交|推送|引入|安[装裝]|添加)"
        r"|(?<!为了)(?<!為了)避免(?:使用|用|引入|直接)",
        # an agent file of a public repository (AGENTS.md)
        "不要自动提交；只有用户明确要求提交时才执行 `git add` 和 `git commit`。",
    ),
    Cue(
        "zh",
        PROHIBITION,
        # what the work must leave as it is: "don't change / break / affect" what exists or
        # what else there is (the imperative, not what a thing cannot do: "这个样式不能改变按钮
        # 颜色"; not one thing of the task: "不要改变按钮的颜色")
        r"(?:不要|[别別])(?:再)?(?:改[变變]|破坏|破壞|影[响響])(?:到)?"
        r"(?:原[本有来來]|[现現]有|既有|已有|其[他它]|[别別]的|之前|向[后後]|兼容|性能|公共|接口"
        r"|API|api|[签簽]名|[测測][试試])",
        # a session of a public repository
        "全面检查代码错误 不要改变原本功能和性能 然后跑CI",
    ),
    Cue(
        "zh",
        PROHIBITION,
        # a file or folder of the project whose step the person keeps for themselves: "X
        # needn't be committed, I commit it myself" (not a report: "我自己提交过了")
        r"(?<![\w.\-/])[\w\-]{0,40}[./][\w.\-/]{0,80}\s?(?:不用(?:你)?|我自己(?:来|來)?)\s?"
        r"(?:提交|推送|commit|push)(?![了过過的])",
        # a session of a public repository
        ".claudeCodeSessions不用提交，我自己提交",
    ),
    Cue(
        "zh",
        CORRECTION,
        r"你(?:又|老是|怎[么麼](?:又|[还還]))|你[没沒](?:有)?(?!问题|問題|事)"
        r"|我不是(?:[让讓]|叫|要)你|我(?:之前|已[经經])?(?:[说說]|[讲講]|[告]訴|告诉|[强強][调調])[过過]"
        r"|[说說]好的",
        "没有了，但是你又忘了将我的问题和你的回复录入到PROMPTS里了",
    ),
    Cue("zh", ADOPT, r"使用|[采採]用|[启啟]用", "使用gemini-summary skills 總結"),
    Cue(
        "zh",
        OBLIGATION,
        r"必[须須]|[务務]必|[应應](?:[该該]|[当當])|不得|一定要|都要|都得|只能",
        "所有代码必须通过 TypeScript 类型检查",
    ),
    Cue(
        "zh",
        SUBJECT,
        r"^(?:所有|全部|每个|每個|每一个|每一個)?(?:的)?(?:新|新增的?|导出的?|導出的?)?"
        # a kind named in Latin letters first: "所有md文档", "所有Python代码"
        r"(?:(?<=[有部个個])[A-Za-z][A-Za-z0-9.+#-]{0,11}\s?)?"
        r"(?:代[码碼]|源[码碼]|注[释釋]|提交(?:信息|[记記][录錄])?|commit|单元测试|單元測試"
        r"|测试|測試|文[档檔]|依[赖賴]|分支|命名|日志|日誌|[迁遷]移|函[数數]|[变變]量|[脚腳]本"
        r"|接口|类型|類型|PR|README|lint)",
        "所有代码必须通过 TypeScript 类型检查",
    ),
    Cue(
        "zh",
        CONVENTION,
        r"[统統]一|一律|默[认認]|[预預][设設]|所有|全部|都(?:用|使用|要用|[采採]用)",
        "所有代码注释使用英文",
    ),
    Cue(
        "zh",
        PREFERENCE,
        r"而非|而不是|[优優]先使用|[统統]一使用",
        "保存在我本地个人目录,而非项目目录",
    ),
    Cue(
        "zh",
        PREFERENCE,
        r"只(?:能)?(?:使用|用)|[仅僅](?:使用|用)",
        "运行时要求 Python 3.10+，只使用标准库。",
    ),
    Cue(
        "zh",
        LANGUAGE,
        r"(?<![翻译譯])(?:用|[说說讲講])(?:[简簡][体體]|[繁][体體])?(?:中文|英文|[汉漢]语|普通[话話])"
        r"|(?:中文|英文)(?:回答|回[复覆])|使用(?:[简簡][体體]|[繁][体體])?(?:中文|英文)",
        "请用中文回答用户的问题。",
    ),
    Cue(
        "zh",
        LANGUAGE,
        # the language of the conversation itself (not a dialog box: 对话框)
        r"(?:中文|英文|[简簡][体體]中文|[繁][体體]中文)(?:跟我|和我|与我|與我|同我)?"
        # not "when we talk in English, …": a complaint about one time
        r"(?:[对對][话話](?!框)|交流|[沟溝][通])(?!的?[时時])",
        "中文对话，用最简单的方法完成任务",
    ),
    Cue(
        "zh",
        STANDING,
        # a permission the agent must wait for every time: "unless I tell you", "without my OK"
        r"除非我|未[经經](?:我的?)?(?:允[许許]|同意|确认|確認)|[没沒]有我的(?:允[许許]|同意|确认|確認)",
        "不要创建新文件，除非我告诉你这么做",
    ),
    Cue(
        "zh",
        ONE_OFF,
        # "now" is the task at hand, except in "from now on" (从现在开始, 从现在起); so is
        # trying or running once more (再试试, 再跑一下)
        r"[这這]次|(?<![从從])[现現]在(?!起)|[当當]前|上面|[刚剛]才|[暂暫]时|[暂暫]時"
        r"|(?<!需要)(?<!都要)再(?:[试試]|跑|来|來|看)|先(?:不要|[别別])|看看",
        "当前没在master分支能直接更新吗",
    ),
    Cue(
        "zh",
        ONE_OFF,
        # "do X first, don't Y (yet)": the order of the steps of this change, unless "first"
        # holds every time ("以后都要先写测试，不要直接写实现"; not 以后 as "after it": 改完以后)
        r"^(?![^。！？]{0,80}?(?:(?:以|今)[后後](?:都|每次|所有|一律|也|要|永[远遠])|永[远遠]|每次"
        r"|始[终終]|[总總]是|一律)[^。！？]{0,80}?先)"
        r"[^。！？]{0,80}?先(?:修改|改|做|完成|[写寫]|[处處]理|看|[检檢]查|[实實][现現]|[测測][试試])"
        r"[^，。！!,]{0,12}[，,]\s?(?:先|[暂暫]时|[暂暫]時|[还還])?(?:不要|[别別])",
        # a session of a public repository
        "请先修改，不要提交",
    ),
    Cue(
        "zh",
        ONE_OFF,
        r"[报報][错錯]|出[错錯]|崩[溃潰]|白屏|[没沒]反[应應]|不生效|不起作用|[还還]是不行|[还還]是一[样樣]"
        r"|[启啟]动失[败敗]|[启啟]動失敗|[运運]行失[败敗]|[编編][译譯]失[败敗]"
        r"|[无無]法(?:[启啟][动動]|[运運]行|打[开開]|[连連]接|[访訪][问問])"
        r"|(?:同[样樣]|一[样樣]|相同)的[错錯][误誤]|[从從]来[没沒]|[从從][没沒]|[装裝]不上|不成功",
        "还是一样的错误，请你对比一下application-dev.yml和application-test.yml，两者是一样的。",
    ),
    Cue(
        "zh",
        ONE_OFF,
        # a problem named as the topic at hand ("…每次都要登录问题": the problem of having to
        # log in every time), not a request: the whole sentence one phrase, not a clause of
        # what goes wrong otherwise ("…，不然会出问题", "npm 会有兼容问题"), nor a request for
        # every time ("以后每次提交前都先处理一下 lint 问题")
        r"^(?![^，,；;]{0,40}(?:以[后後]|所有|永[远遠]|[总總]是|一律))"
        r"[^，,；;]{1,40}(?<![出有会會])[问問][题題]\s{0,2}[。.!！]?$",
        "闲鱼爬取每次都要登录问题",
    ),
    Cue(
        "zh",
        NOT_A_RULE,
        # what forbidding something could do ("禁止直接翻转能减少约三分之一切换"): a reason
        # weighed, the prohibition the subject; not a prohibition of what would cause harm
        # ("禁止引入会导致循环依赖的模块") nor a sentence that goes on to a rule for every time
        rf"^(?!{_EVERY_TIME})(?:禁止|不允[许許])[^，。,；;]{{1,16}}?(?:能|可以)"
        r"(?:减少|減少|降低|提高|提升|避免|防止)",
        # a session of a public repository
        "禁止直接翻转能减少约三分之一切换，同时还会通过 ranging 的 dwell+confirm 机制额外减缓。",
    ),
    Cue(
        "zh",
        ONE_OFF,
        # replacing, renaming or deleting every one of something: one sweep of the code
        # ("替换所有的SeatSelection type要使用新的包"), unless the sentence goes on to a rule
        # for every time ("替换所有的 var 为 let，以后一律用 let")
        rf"^(?!{_EVERY_TIME})(?:[请請]|[帮幫]我)?(?:替[换換]|改掉|[删刪]掉|[删刪]除|重命名|批量替[换換])"
        r"(?:所有|全部)",
        # a session of a public repository
        "替换所有的SeatSelection type要使用新的包，他是 @ctrip/my-account/edge/types/postSale",
    ),
    Cue(
        "zh",
        NOT_A_RULE,
        # praise and encouragement of the agent ("挺好的", "不错"), not "好的" (OK)
        r"^(?:挺好|很好|真好|不[错錯]|太好了|太棒|真棒|[辛]苦了|做得好)",
        "挺好的，犯错之后的思考是ok的，你还是要自信，我是看好你的",
    ),
    Cue(
        "zh",
        QUESTION,
        # A question word asks only where no verb of checking or telling takes it as its
        # object (检查是否…, "check whether": an indirect question inside an instruction),
        # no 不管/无论 makes it "whatever", and 什么都/也 is not "anything at all".
        r"[吗嗎]|[为為]什[么麼]|"
        + "".join(f"(?<!{verb})" for verb in _TAKES_A_QUESTION)
        + r"(?:如何|怎[么麼](?!又|[还還])|什[么麼](?![都也])|是否|能否)",
        "claude code 如何更新到最新版本",
    ),
    Cue(
        "zh",
        QUESTION,
        # a verdict asked for at the end ("…，请确认是否正确"): the sentence asks, whatever
        # came before it (not a check of every time: "提交前请确认是否通过 lint")
        r"[请請](?:[帮幫]我)?(?:确认|確認|核实|核實|判断|判斷)(?:一下)?(?:是否|是不是)"
        r"(?:正确|正確|准确|準確|对|對|合理|可行|有[误誤]|成立)[。.？?！!]?\s*$",
        # a session of a public repository
        "3、硬件兼容性提到要iPhone 11及以上（U1芯片）,我理解这是对uwb协议的要求，"
        "而不是蓝牙6.0 channel sounding的要求，请确认是否正确",
    ),
    Cue(
        "zh",
        QUESTION,
        # 么 ending the sentence asks as 吗 does (not in 这么, 那么, 怎么, 什么, 多么, 要么)
        r"(?<![这這那怎什甚多要])[么麼][?？!！。]{0,3}\s{0,2}$",
        "你还是忠臣么",
    ),
    # --- Japanese ---
    Cue("ja", STANDING, r"必ず|常に|毎回|禁止", "必ず日本語で回答してください。"),
    Cue(
        "ja",
        HENCEFORTH,
        r"今後|以後|(?:前|後|時|とき|際|場合)は|(?:コミット|プッシュ|マージ|デプロイ)(?:する)?前に",
        "機能作成前はブランチを切り、作成後はREWADMEを更新し、pull requestを作成してください。",
    ),
    Cue(
        "ja",
        DIRECTIVE,
        r"[てで](?:ください|下さい)|すること|しないこと|しないで|使用|利用|使う|使って|用いる|用いて",
        "パッケージ管理はuvを利用し、pydanticで方をチェックしてください。",
    ),
    Cue(
        "ja",
        ADOPT,
        r"利用|使用|使う|使って|用い|有効|導入|採用",
        "またruffでりんターを有効にしてください。",
    ),
    Cue(
        "ja",
        PROHIBITION,
        r"ないでください|ないで下さい|てはいけ(?:ない|ません)|しないこと|避けて|避けること",
        "DBは使用しないでください",
    ),
    Cue("ja", LANGUAGE, r"(?:日本語|英語)で", "常に日本語で回答してください。"),
    Cue(
        "ja",
        PREFERENCE,
        r"ではなく|じゃなくて|の?代わりに|(?:の)?(?:ほう|方)が(?:いい|良い)|を優先",
        "npmの代わりに常にpnpmを使ってください",
    ),
    Cue(
        "ja",
        PROHIBITION,
        # "no more …": "そういうしょうもない迂回作は二度としないでください。"
        r"(?:もう|二度と)[^。！!？?]{0,20}ないで",
        "もうnpmは使わないで",
    ),
    Cue(
        "ja",
        PROHIBITION,
        # a plain "don't …" that ends the sentence (not "…ないで、…": "without …")
        r"ないで(?:ね|よ|ほしい|欲しい)?(?=[。！!]|$)",
        # a corrective prompt in a public repository's tests
        "二度と勝手にコミットしないで。前にも言った。",
    ),
    Cue(
        "ja",
        TEAM,
        # a topic and the tool it goes through: "テストはpytestで書く"
        r"は\s?[A-Za-z][A-Za-z0-9.+-]{0,40}\s?で(?:[書か]|実行|管理|記述|作成|ビルド|動か|回|走らせ|行)",
        # the coding rules of a public repository's CLAUDE.md
        "テストはpytestで書く。カバレッジ80%以上",
    ),
    Cue(
        "ja",
        CORRECTION,
        # "I said it before", "you forgot again" (the plain forms: "ました" is an account)
        r"言(?:った|ってた)(?:よね|でしょ|じゃん|のに|けど)|(?:また|何度も)[^。！!]{0,20}(?:忘れ|間違え)"
        r"|忘れて(?:る|いる|います)",
        # a sentence of this form, not yet found in a public repository
        "前にも言ったよね、テストを書いてからコミットして。",
    ),
    Cue(
        "ja",
        ONE_OFF,
        r"今回|今日|今は|今から|上記|さっき|先ほど|とりあえず|この|その|これ|それ|あの"
        r"|ました|でした|だった|ことがない|ことがある|まだ|けど|けれど|すると|と出る|失敗|通らない"
        r"|動かない|心配|気にし|無理し",
        "上記を修正してください。",
    ),
    Cue(
        "ja",
        QUESTION,
        r"ですか|ますか|でしょうか|か[。]?$",
        "本プロジェクトはバックエンドサーバを使っていますか？",
    ),
    # --- Korean ---
    Cue(
        "ko",
        STANDING,
        r"반드시|항상|금지|매번|절대(?! ?(?:경로|값|좌표|주소|시간|위치|url))",
        "작업 완료 시 반드시 커밋을 작성하세요",
    ),
    Cue(
        "ko",
        STANDING,
        r"(?:커밋|푸시|배포|머지|병합|push|commit)(?:하기)? ?전에",
        "매번 커밋하기 전에 확인:",
    ),
    Cue(
        "ko",
        HENCEFORTH,
        r"앞으로(?:는)?|이제부터|이제 부터|지금부터|다음부터",
        "이제부터 코드작업에 진입해",
    ),
    Cue(
        "ko",
        DIRECTIVE,
        # polite or plain: "…하세요", "…해 주세요", "…해줘"
        r"해 ?주세요|하세요|사용|[가-힣] ?줘(?:요)?\s*[.!]*\s*$",
        "공통 함수는 독립적으로 분리하세요",
    ),
    Cue(
        "ko",
        PROHIBITION,
        r"피해 ?주세요|피하세요|피해줘|피할 것",
        "`dataset`을 정의할 때는 다음의 변수명 사용을 피해주세요.",
    ),
    Cue("ko", ADOPT, r"사용|도입", "패키지 매니저는 pnpm을 사용하세요 (npm 대신)"),
    Cue("ko", PREFERENCE, r"대신|[가-힣A-Za-z0-9] ?말고\b", "npm 대신 pnpm을 사용하세요."),
    Cue("ko", PROHIBITION, r"다시는", "이것들은 지우고 다시는 쓰지 마"),
    Cue(
        "ko",
        PROHIBITION,
        # the negative imperative: "…하지 마(세요)", "…하지 말고", "…하지 말 것"
        r"(?:커밋|푸시|머지|병합|배포|수정|삭제|지우|변경|건드리|만들|생성|설치|추가|사용|쓰|올리|바꾸"
        r"|고치|실행|돌리|push|commit|merge|deploy|install)(?: ?하)? ?지 ?"
        r"(?:마(?:세요|십시오|라|요)?(?=\s*[.!,)]|\s*$)|말(?:고|아|아 ?주세요|아줘|것))",
        # the notes of a public repository's README
        "이 저장소에는 실제 운영용 secret key를 커밋하지 마세요.",
    ),
    Cue(
        "ko",
        TEAM,
        # a topic and the tool it goes through: "테스트는 pytest로 작성"
        r"[은는] ?[A-Za-z][A-Za-z0-9.+-]{0,40} ?(?:으로|로) ?(?:작성|실행|관리|빌드|돌|테스트|해)",
        # a guide to CLAUDE.md in a public repository
        "테스트는 pytest로 작성합니다.",
    ),
    Cue("ko", LANGUAGE, r"(?:한글|한국어|영어)로", "한글로 답변해줘."),
    Cue(
        "ko",
        CORRECTION,
        # "I told you to …", "you forgot again"
        r"(?:라고|하라고|말) ?했(?:잖아|는데|지)|또 [^.!?]{0,15}(?:잊|빼먹|까먹)",
        "라이선스는 GPL 라이선스라고 했잖아",
    ),
    Cue(
        "ko",
        ONE_OFF,
        r"에러가? 나|오류가? (?:나|발생)|안 ?됩니다|안 ?돼요?\s*[.!]*$|작동하지 않|실패했",
        "업무 라는 글자가 들어가면 Object not found! 에러가 나옴...... 뭐지?? -_- 뭐지?",
    ),
    Cue(
        "ko",
        ONE_OFF,
        r"이번|지금(?! ?부터)|위의|다시(?!는)|했습니다|했어요|었습니다|아직|오늘"
        r"|죽어|죽는|발생하|때만"  # it dies, it happens only when: an account
        r"|(?:그|이|저)(?:거|것|건)(?:[을를은는도]|\s)",  # this or that one thing
        "코드라인을 명시하지말고 다시 설명해",
    ),
    Cue(
        "ko",
        QUESTION,
        # not the reason clause "…(으)니까" ("since …"), which ends no question; the formal
        # question "…ㅂ니까" (합니까, 습니까) is one
        rf"(?:(?<!니)까|(?<=[{_B_FINAL}]니)까|나요|니|맞나)\s*\??$|^(?:왜|어떻게|뭐)",
        "프리뷰를 표시하기에 가장 적합한 방법이 iframe 방식이 맞나 ?",
    ),
)
