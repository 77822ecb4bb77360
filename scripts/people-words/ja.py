"""Japanese words for the bundled demo people: job titles and the text alternative of each headshot.

Loaded by scripts/make-people with importlib. Standard library only.

`describe(look)` builds the same list as the English describe(): hair, glasses, beard, earrings, hat, extra, top.
Japanese lists noun phrases with 読点 alone, "A、B、C" (no word for "and" before the last item: "AとBとC" or
"A、B、およびC" would read as a translation), so the parts are joined with "、". No capitals and no 句点 at the end,
as the English has no full stop. The site's own words are kept: 眼鏡 and ひげ (as in people.appearance.help).

Japanese adjectives do not agree with their noun, but a colour is one of two kinds, and each table holds its colour
as it stands before a noun:
    an i-adjective      青いパーカー, 赤いキャップ, 黄色いトップス
    a noun with の      紺のパーカー, レンガ色のキャップ, ピンクのトップス
Hair colours come in two forms, because Japanese names hair by its colour (黒髪, 金髪, 赤毛, 白髪):
    HAIR  the hair itself, where the style is said of it:    短い黒髪, お団子にまとめた青い髪, 長いプラチナブロンドの髪
    TINT  the colour before a hairstyle's name:                 黒髪のポニーテール, 青いボブカット, ピンクのアフロ
"""

# Job titles as a Japanese tech company writes them: in katakana, as job ads, team pages and business cards do
# (ソフトウェアエンジニア, プロダクトマネージャー), with the abbreviations and platform names left in Latin letters,
# as is usual there (UXリサーチャー, QAエンジニア, iOSエンジニア, DevOpsエンジニア). "Developer" is エンジニア in
# Japanese job titles (iOSエンジニア, Androidエンジニア; iOSデベロッパー is rare). Japanese words where the office
# uses them: 採用担当 (リクルーター means something narrower in Japan: a staff member sent to meet students), and
# マーケティング責任者 (for "Lead"; マーケティングリード is startup jargon).
TITLES = {
    "Software Engineer": "ソフトウェアエンジニア",
    "Senior Software Engineer": "シニアソフトウェアエンジニア",
    "Product Designer": "プロダクトデザイナー",
    "UX Researcher": "UXリサーチャー",                      # "UX" in Latin letters, as usual
    "Engineering Manager": "エンジニアリングマネージャー",
    "Project Manager": "プロジェクトマネージャー",
    "QA Engineer": "QAエンジニア",                          # "QA" in Latin letters, as usual
    "Data Scientist": "データサイエンティスト",
    "iOS Developer": "iOSエンジニア",                       # "iOS" in Latin letters, as usual
    "Android Developer": "Androidエンジニア",               # "Android" in Latin letters, as usual
    "DevOps Engineer": "DevOpsエンジニア",                  # "DevOps" in Latin letters, as usual
    "Content Strategist": "コンテンツストラテジスト",
    "Office Manager": "オフィスマネージャー",
    "Recruiter": "採用担当",
    "Solutions Architect": "ソリューションアーキテクト",
    "Product Manager": "プロダクトマネージャー",
    "Accessibility Specialist": "アクセシビリティスペシャリスト",
    "Security Engineer": "セキュリティエンジニア",
    "Technical Writer": "テクニカルライター",
    "Marketing Lead": "マーケティング責任者",
}

# English hair-colour word -> (HAIR: the hair itself, TINT: the colour before a hairstyle's name).
# "ginger" is 赤毛 (natural red hair); the dyed "red" is 真っ赤な髪, so the two stay apart.
# 茶色の髪 rather than 茶髪, which in Japan says "dyed".
HAIR_COLOURS = {
    "black": ("黒髪", "黒髪の"),
    "dark brown": ("ダークブラウンの髪", "ダークブラウンの"),
    "brown": ("茶色の髪", "茶色の"),
    "light brown": ("ライトブラウンの髪", "ライトブラウンの"),
    "ginger": ("赤毛", "赤毛の"),
    "blond": ("金髪", "金髪の"),
    "platinum blond": ("プラチナブロンドの髪", "プラチナブロンドの"),
    "red": ("真っ赤な髪", "真っ赤な"),
    "grey": ("グレーの髪", "グレーの"),
    "white": ("白髪", "白髪の"),
    "blue": ("青い髪", "青い"),
    "purple": ("紫の髪", "紫の"),
    "pink": ("ピンクの髪", "ピンクの"),
    "green": ("緑の髪", "緑の"),
}

# English clothes-colour word -> the colour as it stands before a noun (i-adjective, or noun + の).
COLOURS = {
    "blue": "青い", "red": "赤い", "teal": "青緑の", "orange": "オレンジの", "plum": "プラム色の",
    "dark teal": "濃い青緑の", "yellow": "黄色い", "light blue": "水色の", "green": "緑の", "brick red": "レンガ色の",
    "navy": "紺の", "pink": "ピンクの", "indigo": "藍色の", "magenta": "マゼンタの", "brown": "茶色の",
    "black": "黒い",
}

# Hairstyles: (template, which hair form fills "{c}"). None: no colour (a bald head).
STYLE_WORDS = {
    "short": ("短い{c}", "hair"),
    "long": ("長い{c}", "hair"),
    "bun": ("お団子にまとめた{c}", "hair"),
    "curly": ("カールした{c}", "hair"),
    "bald": ("スキンヘッド", None),
    "mohawk": ("{c}モヒカン", "tint"),
    "bob": ("{c}ボブカット", "tint"),
    "afro": ("{c}アフロ", "tint"),
    "sidepart": ("横分けにした{c}", "hair"),
    "ponytail": ("{c}ポニーテール", "tint"),
    "buzz": ("短く刈り込んだ{c}", "hair"),
    "fringe": ("前髪を下ろした{c}", "hair"),
    "wavy": ("ウェーブのかかった{c}", "hair"),
    "spiky": ("ツンツンに立てた{c}", "hair"),
}

# Phrases with a clothes colour: "{c}" is the colour with its own ending (青い, 紺の). The feature that is not a
# colour comes first, so the colour stays with the garment: 襟付きの青いシャツ (not 青い襟付きシャツ, "a shirt with
# a blue collar").
HAT_WORDS = {"beanie": "{c}ニット帽", "cap": "{c}キャップ", "headband": "{c}ヘアバンド"}
COLLAR_WORDS = {"crew": "{c}トップス", "vneck": "Vネックの{c}トップス", "collar": "襟付きの{c}シャツ",
                "hoodie": "{c}パーカー", "turtleneck": "{c}タートルネック"}

# Phrases without a colour.
GLASSES_WORDS = {"round": "丸眼鏡", "square": "四角い眼鏡", "cateye": "キャットアイ型の眼鏡", "thick": "太縁の眼鏡"}
BEARD_WORDS = {"stubble": "無精ひげ", "full": "豊かなあごひげ", "moustache": "口ひげ", "goatee": "やぎひげ"}
# ピアス is the Japanese word for earrings in pierced ears (イヤリング are clip-ons).
EARRING_WORDS = {"hoops": "フープピアス", "studs": "スタッドピアス", "drops": "揺れるピアス"}
EXTRA_WORDS = {"freckles": "そばかす", "blush": "ほんのり赤い頬", "mole": "ほくろ", "necklace": "ネックレス",
               "bowtie": "蝶ネクタイ"}


def _hair(style, colour):
    """The hair: the style's template filled with the colour in the form that template takes."""
    template, form = STYLE_WORDS[style]
    if form is None:
        return template
    hair, tint = HAIR_COLOURS[colour]
    return template.format(c=hair if form == "hair" else tint)


def describe(look):
    """What one sees at a glance, in words: hair, then what the face wears, then the top."""
    parts = [_hair(look["hair_style"], look["hair"])]
    parts += [GLASSES_WORDS.get(look.get("glasses")), BEARD_WORDS.get(look.get("beard")),
              EARRING_WORDS.get(look.get("earrings"))]
    hat = HAT_WORDS.get(look.get("hat"))
    parts.append(hat.format(c=COLOURS[look["hat_colour"]]) if hat else None)
    parts.append(EXTRA_WORDS.get(look.get("extra")))
    parts.append(COLLAR_WORDS[look["collar"]].format(c=COLOURS[look["shirt"]]))
    return "、".join(p for p in parts if p)
