"""Russian words for the bundled demo people: job titles and the text alternative of each headshot.

Loaded by scripts/make-people with importlib. Standard library only.

Russian adjectives agree with their noun in gender and number, so every colour below has its four
nominative forms (masculine, feminine, neuter, plural), and every noun says which form it takes.
All phrases stay in the nominative: a bare list of what one sees, as in the English.
"""

# Job titles as a Russian-speaking IT company writes them. Kept in English, as is usual there: "Data Scientist"
# (the Russian "специалист по анализу данных" is rare on a business card). Mixed, as usual there: "iOS-разработчик",
# "Android-разработчик", "DevOps-инженер", "UX-исследователь" (the platform or method stays in Latin letters).
TITLES = {
    "Software Engineer": "Разработчик",
    "Senior Software Engineer": "Старший разработчик",
    "Product Designer": "Продуктовый дизайнер",
    "UX Researcher": "UX-исследователь",
    "Engineering Manager": "Руководитель разработки",
    "Project Manager": "Менеджер проектов",
    "QA Engineer": "Инженер по тестированию",
    "Data Scientist": "Специалист по данным",
    "iOS Developer": "iOS-разработчик",
    "Android Developer": "Android-разработчик",
    "DevOps Engineer": "DevOps-инженер",
    "Content Strategist": "Контент-стратег",
    "Office Manager": "Офис-менеджер",
    "Recruiter": "Рекрутер",
    "Solutions Architect": "Архитектор решений",
    "Product Manager": "Менеджер продукта",
    "Accessibility Specialist": "Специалист по цифровой доступности",
    "Security Engineer": "Инженер по информационной безопасности",
    "Technical Writer": "Технический писатель",
    "Marketing Lead": "Руководитель маркетинга",
}

# Genders: "m" masculine, "f" feminine, "n" neuter, "pl" plural (any gender). Forms are in this order.
_G = ("m", "f", "n", "pl")


def _forms(m, f, n, pl):
    return dict(zip(_G, (m, f, n, pl)))


# Hair colours, keyed by the English word (a value of HAIR_WORDS). Words for hair, not for paint: "рыжие" (ginger),
# "светлые" (blond), "седые" (grey), "каштановые" (brown).
HAIR_COLOURS = {
    "black": _forms("чёрный", "чёрная", "чёрное", "чёрные"),
    "dark brown": _forms("тёмно-каштановый", "тёмно-каштановая", "тёмно-каштановое", "тёмно-каштановые"),
    "brown": _forms("каштановый", "каштановая", "каштановое", "каштановые"),
    "light brown": _forms("светло-каштановый", "светло-каштановая", "светло-каштановое", "светло-каштановые"),
    "ginger": _forms("рыжий", "рыжая", "рыжее", "рыжие"),
    "blond": _forms("светлый", "светлая", "светлое", "светлые"),
    "platinum blond": _forms("платиновый", "платиновая", "платиновое", "платиновые"),
    # The drawing's "red" is a true red (#a1322a), told apart from the ginger one: dyed-looking, so "красные".
    "red": _forms("красный", "красная", "красное", "красные"),
    "grey": _forms("седой", "седая", "седое", "седые"),
    "white": _forms("белый", "белая", "белое", "белые"),
    "blue": _forms("синий", "синяя", "синее", "синие"),
    "purple": _forms("фиолетовый", "фиолетовая", "фиолетовое", "фиолетовые"),
    "pink": _forms("розовый", "розовая", "розовое", "розовые"),
    "green": _forms("зелёный", "зелёная", "зелёное", "зелёные"),
}

# Clothes colours, keyed by the English word (a value of COLOUR_WORDS). An adjective agrees and goes before the
# noun; a plain string ("цвета индиго") never changes and goes straight after the noun, as Russian puts it.
# Russian splits blue in two: "синий" (blue), "голубой" (light blue), "тёмно-синий" (navy).
COLOURS = {
    "blue": _forms("синий", "синяя", "синее", "синие"),
    "red": _forms("красный", "красная", "красное", "красные"),
    "teal": _forms("бирюзовый", "бирюзовая", "бирюзовое", "бирюзовые"),
    "orange": _forms("оранжевый", "оранжевая", "оранжевое", "оранжевые"),
    "plum": _forms("сливовый", "сливовая", "сливовое", "сливовые"),
    "dark teal": _forms("тёмно-бирюзовый", "тёмно-бирюзовая", "тёмно-бирюзовое", "тёмно-бирюзовые"),
    "yellow": _forms("жёлтый", "жёлтая", "жёлтое", "жёлтые"),
    "light blue": _forms("голубой", "голубая", "голубое", "голубые"),
    "green": _forms("зелёный", "зелёная", "зелёное", "зелёные"),
    "brick red": _forms("кирпично-красный", "кирпично-красная", "кирпично-красное", "кирпично-красные"),
    "navy": _forms("тёмно-синий", "тёмно-синяя", "тёмно-синее", "тёмно-синие"),
    "pink": _forms("розовый", "розовая", "розовое", "розовые"),
    "indigo": "цвета индиго",
    "magenta": "цвета фуксии",
    "brown": _forms("коричневый", "коричневая", "коричневое", "коричневые"),
    "black": _forms("чёрный", "чёрная", "чёрное", "чёрные"),
}

# Hairstyles: (gender the hair colour takes, phrase). {c} is the hair colour. "bald" has no colour, as in English.
# A bun and a ponytail are hair "собранные в пучок / в хвост"; the participle goes first so that the list's
# commas are the only ones (the other order would need a comma of its own after it).
STYLES = {
    "short": ("pl", "короткие {c} волосы"),
    "long": ("pl", "длинные {c} волосы"),
    "bun": ("pl", "собранные в пучок {c} волосы"),
    "curly": ("pl", "{c} кудрявые волосы"),
    "bald": (None, "лысая голова"),
    "mohawk": ("m", "{c} ирокез"),
    "bob": ("n", "{c} каре"),
    "afro": ("f", "{c} причёска афро"),
    "sidepart": ("pl", "{c} волосы с боковым пробором"),
    "ponytail": ("pl", "собранные в хвост {c} волосы"),
    "buzz": ("pl", "{c} волосы ёжиком"),
    "fringe": ("pl", "{c} волосы с чёлкой"),
    "wavy": ("pl", "{c} волнистые волосы"),
    "spiky": ("pl", "{c} волосы торчком"),
}

GLASSES = {"round": "круглые очки", "square": "квадратные очки", "cateye": "очки «кошачий глаз»",
           "thick": "очки в толстой оправе"}
# The drawn goatee is a chin beard with a thin moustache: "эспаньолка".
BEARDS = {"stubble": "щетина", "full": "густая борода", "moustache": "усы", "goatee": "эспаньолка"}
EARRINGS = {"hoops": "серьги-кольца", "studs": "серьги-гвоздики", "drops": "серьги-подвески"}
# Clothes: (gender, phrase). {a} is an agreeing colour with its space ("синяя "), {p} a fixed one (" цвета индиго").
# The drawn headband is an arc over the hair: "ободок".
HATS = {"beanie": ("f", "{a}шапка{p}"), "cap": ("f", "{a}кепка{p}"), "headband": ("m", "{a}ободок{p}")}
# The drawn necklace is a gold chain with a round pendant.
EXTRAS = {"freckles": "веснушки", "blush": "румяные щёки", "mole": "родинка", "necklace": "цепочка с кулоном",
          "bowtie": "галстук-бабочка"}
TOPS = {
    "crew": ("f", "{a}футболка{p}"),
    "vneck": ("f", "{a}футболка{p} с V-образным вырезом"),
    "collar": ("f", "{a}рубашка{p}"),
    "hoodie": ("f", "{a}толстовка{p} с капюшоном"),
    "turtleneck": ("f", "{a}водолазка{p}"),
}


def _none(value):
    return value is None or value == "none"


def _garment(entry, colour):
    gender, phrase = entry
    word = COLOURS[colour]
    if isinstance(word, str):
        return phrase.format(a="", p=" " + word)
    return phrase.format(a=word[gender] + " ", p="")


def describe(look):
    """What one sees at a glance, in words: hair, then what the face wears, then the top."""
    gender, phrase = STYLES[look["hair_style"]]
    parts = [phrase.format(c=HAIR_COLOURS[look["hair"]][gender]) if gender else phrase]
    for key, table in (("glasses", GLASSES), ("beard", BEARDS), ("earrings", EARRINGS)):
        if not _none(look.get(key)):
            parts.append(table[look[key]])
    if not _none(look.get("hat")):
        parts.append(_garment(HATS[look["hat"]], look["hat_colour"]))
    if not _none(look.get("extra")):
        parts.append(EXTRAS[look["extra"]])
    parts.append(_garment(TOPS[look["collar"]], look["shirt"]))
    text = ", ".join(parts[:-1]) + " и " + parts[-1]
    return text[0].upper() + text[1:]
