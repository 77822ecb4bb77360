"""French words for the bundled demo people (job titles and the headshots' text alternatives).

Imported by scripts/make-people with importlib. Standard library only.

`describe(look)` builds the same list as the English describe(): hair, glasses, beard, earrings, hat, extra, top,
joined "A, B et C" (French puts no comma before "et"). Every item is a noun phrase with its indefinite article
("un", "une", "des"; "de" before an adjective that comes first: "de longs cheveux").

A French colour adjective follows its noun and agrees with it in gender and number, so every colour below has its
four forms (masculine and feminine, singular and plural) and every noun says which one it takes:
    un bonnet vert     une casquette verte     des cheveux verts     (feminine plural: vertes)
Colours named after a thing ("orange", "marron", "prune", "indigo", "magenta") and compound colours ("bleu marine",
"châtain clair", "blond platine", "rouge brique") do not agree, so their four forms are the same: un bonnet orange,
des cheveux châtain clair. "Rose" does agree: des cheveux roses. "Châtain" takes a plural "s" but is used for
feminine nouns as it is ("une queue de cheval châtain"; "châtaine" is rare).
"""

# Job titles. French job titles are gendered (développeur / développeuse, ingénieur / ingénieure) and the table has
# one title per role for people of any gender, so each is written as the function ("Développement iOS", "Rédaction
# technique", "Recrutement"), or with a title that fits anyone ("Architecte solutions", "Responsable marketing",
# "Chef de projet", used in French offices for women as well as men). All French: English titles beside French ones
# read as unplanned ("Software Engineer" next to "Chef de projet": a native reader).
TITLES = {
    "Software Engineer": "Développement logiciel",
    "Senior Software Engineer": "Développement logiciel (senior)",
    "Product Designer": "Design produit",
    "UX Researcher": "Recherche UX",
    "Engineering Manager": "Direction technique",
    "Project Manager": "Chef de projet",
    "QA Engineer": "Assurance qualité",
    "Data Scientist": "Science des données",
    "iOS Developer": "Développement iOS",
    "Android Developer": "Développement Android",
    "DevOps Engineer": "Ingénierie DevOps",
    "Content Strategist": "Stratégie de contenu",
    "Office Manager": "Services généraux",
    "Recruiter": "Recrutement",
    "Solutions Architect": "Architecte solutions",
    "Product Manager": "Gestion de produit",
    "Accessibility Specialist": "Spécialiste en accessibilité numérique",
    "Security Engineer": "Ingénierie sécurité",
    "Technical Writer": "Rédaction technique",
    "Marketing Lead": "Responsable marketing",
}

# Forms of an adjective: masculine singular, feminine singular, masculine plural, feminine plural.
_FORMS = ("ms", "fs", "mp", "fp")


def _agrees(ms, fs, mp, fp):
    return dict(zip(_FORMS, (ms, fs, mp, fp)))


def _fixed(word):
    """A colour that does not agree (named after a thing, or compound)."""
    return _agrees(word, word, word, word)


# Hair colours, keyed by the English word (a value of HAIR_WORDS). Words for hair, not for paint: in French, "brun"
# hair is dark brown, "châtain" is brown, "roux" is ginger. The drawing's "red" (#a1322a) is a dyed red, told apart
# from the ginger: "rouge".
HAIR_COLOURS = {
    "black": _agrees("noir", "noire", "noirs", "noires"),
    "dark brown": _agrees("brun", "brune", "bruns", "brunes"),
    "brown": _agrees("châtain", "châtain", "châtains", "châtains"),
    "light brown": _fixed("châtain clair"),
    "ginger": _agrees("roux", "rousse", "roux", "rousses"),
    "blond": _agrees("blond", "blonde", "blonds", "blondes"),
    "platinum blond": _fixed("blond platine"),
    "red": _agrees("rouge", "rouge", "rouges", "rouges"),
    "grey": _agrees("gris", "grise", "gris", "grises"),
    "white": _agrees("blanc", "blanche", "blancs", "blanches"),
    "blue": _agrees("bleu", "bleue", "bleus", "bleues"),
    "purple": _agrees("violet", "violette", "violets", "violettes"),
    "pink": _agrees("rose", "rose", "roses", "roses"),
    "green": _agrees("vert", "verte", "verts", "vertes"),
}

# Clothes colours, keyed by the English word (a value of COLOUR_WORDS). The fashion names: "bleu canard" for the
# teal (#2a9d8f), "bleu pétrole" for the dark teal (#264653), "marron" for a brown garment.
COLOURS = {
    "blue": _agrees("bleu", "bleue", "bleus", "bleues"),
    "red": _agrees("rouge", "rouge", "rouges", "rouges"),
    "teal": _fixed("bleu canard"),
    "orange": _fixed("orange"),
    "plum": _fixed("prune"),
    "dark teal": _fixed("bleu pétrole"),
    "yellow": _agrees("jaune", "jaune", "jaunes", "jaunes"),
    "light blue": _fixed("bleu clair"),
    "green": _agrees("vert", "verte", "verts", "vertes"),
    "brick red": _fixed("rouge brique"),
    "navy": _fixed("bleu marine"),
    "pink": _agrees("rose", "rose", "roses", "roses"),
    "indigo": _fixed("indigo"),
    "magenta": _fixed("magenta"),
    "brown": _fixed("marron"),
    "black": _agrees("noir", "noire", "noirs", "noires"),
}

# Phrases with a colour: (template, form the colour takes). "{c}" is the colour, agreeing with the noun it follows.
# Most hair is "des cheveux" (masculine plural), as French describes hair.
STYLE_WORDS = {
    "short": ("des cheveux {c} courts", "mp"),
    "long": ("de longs cheveux {c}", "mp"),
    "bun": ("des cheveux {c} relevés en chignon", "mp"),
    "curly": ("des cheveux {c} bouclés", "mp"),
    "bald": ("un crâne chauve", None),
    "mohawk": ("une crête iroquoise {c}", "fs"),
    "bob": ("des cheveux {c} coupés au carré", "mp"),
    "afro": ("une coupe afro {c}", "fs"),
    "sidepart": ("des cheveux {c} avec une raie sur le côté", "mp"),
    "ponytail": ("une queue de cheval {c}", "fs"),
    "buzz": ("des cheveux {c} coupés ras", "mp"),
    "fringe": ("des cheveux {c} avec une frange", "mp"),
    "wavy": ("des cheveux {c} ondulés", "mp"),
    "spiky": ("des cheveux {c} hérissés", "mp"),
}
HAT_WORDS = {"beanie": ("un bonnet {c}", "ms"), "cap": ("une casquette {c}", "fs"),
             "headband": ("un bandeau {c}", "ms")}
COLLAR_WORDS = {"crew": ("un haut {c}", "ms"), "vneck": ("un haut {c} à col en V", "ms"),
                "collar": ("une chemise {c}", "fs"), "hoodie": ("un sweat {c} à capuche", "ms"),
                "turtleneck": ("un col roulé {c}", "ms")}

# Phrases without a colour.
GLASSES_WORDS = {"round": "des lunettes rondes", "square": "des lunettes carrées",
                 "cateye": "des lunettes œil-de-chat", "thick": "des lunettes à monture épaisse"}
BEARD_WORDS = {"stubble": "une barbe de trois jours", "full": "une barbe fournie", "moustache": "une moustache",
               "goatee": "un bouc"}
EARRING_WORDS = {"hoops": "des créoles", "studs": "des clous d’oreilles", "drops": "des pendants d’oreilles"}
EXTRA_WORDS = {"freckles": "des taches de rousseur", "blush": "des joues rosées", "mole": "un grain de beauté",
               "necklace": "un collier", "bowtie": "un nœud papillon"}


def _coloured(entry, colour):
    """Fill a (template, form) phrase with the colour's form that agrees with the noun."""
    template, form = entry
    if form is None:
        return template
    return template.format(c=colour[form])


def describe(look):
    """What one sees at a glance, in words: hair, then what the face wears, then the top."""
    parts = [_coloured(STYLE_WORDS[look["hair_style"]], HAIR_COLOURS[look["hair"]])]
    parts += [GLASSES_WORDS.get(look.get("glasses")), BEARD_WORDS.get(look.get("beard")),
              EARRING_WORDS.get(look.get("earrings"))]
    hat = HAT_WORDS.get(look.get("hat"))
    parts.append(_coloured(hat, COLOURS[look["hat_colour"]]) if hat else None)
    parts.append(EXTRA_WORDS.get(look.get("extra")))
    parts.append(_coloured(COLLAR_WORDS[look["collar"]], COLOURS[look["shirt"]]))
    parts = [p for p in parts if p]
    text = ", ".join(parts[:-1]) + " et " + parts[-1]
    return text[0].upper() + text[1:]
