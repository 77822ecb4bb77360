"""German words for the bundled demo people (job titles and the headshots' text alternatives).

Imported by scripts/make-people with importlib. Standard library only.

`describe(look)` builds the same list as the English describe(): hair, glasses, beard, earrings, hat, extra, top,
joined "A, B und C" (German puts no comma before "und"). Every noun phrase is in the nominative, with the indefinite
article ("ein", "eine") or, for plurals and "Haar", no article. In exactly those places a German adjective takes one
ending per gender, so the tables hold the noun's gender and the colour's stem:
    masculine  ein schwarzer Hoodie        feminine  eine schwarze Strickmütze
    neuter     ein schwarzes Oberteil      neuter with no article, and plural: schwarzes Haar, rosige Wangen
Colours that standard German does not inflect ("lila", "rosa") stay as they are: ein lila Dutt, eine rosa Mütze.
Colours that are not inflected in careful writing, or sound wrong inflected ("orange", "pink", "magenta", "petrol"),
are given as the regular "-farben" adjective instead: ein orangefarbener Hoodie, pinkfarbenes Haar.
"""

# Job titles. German job titles are gendered (Softwareentwickler / Softwareentwicklerin) and the table has one
# title per role for people of any gender, so each is written as the role ("Projektleitung", "Softwareentwicklung",
# as on a German team page or signature), which fits anyone. All German: English ones beside German ones read as
# unplanned ("Gesucht war Arjun Arslan (QA Engineer)", then "(Fachkraft für Barrierefreiheit)": a native reader).
TITLES = {
    "Software Engineer": "Softwareentwicklung",
    "Senior Software Engineer": "Softwareentwicklung (Senior)",
    "Product Designer": "Produktdesign",
    "UX Researcher": "UX-Forschung",
    "Engineering Manager": "Leitung Softwareentwicklung",
    "Project Manager": "Projektleitung",
    "QA Engineer": "Qualitätssicherung",
    "Data Scientist": "Datenanalyse",
    "iOS Developer": "iOS-Entwicklung",
    "Android Developer": "Android-Entwicklung",
    "DevOps Engineer": "DevOps",
    "Content Strategist": "Content-Strategie",
    "Office Manager": "Büroleitung",
    "Recruiter": "Personalgewinnung",
    "Solutions Architect": "Lösungsarchitektur",
    "Product Manager": "Produktmanagement",
    "Accessibility Specialist": "Fachkraft für Barrierefreiheit",
    "Security Engineer": "IT-Sicherheit",
    "Technical Writer": "Technische Redaktion",
    "Marketing Lead": "Marketingleitung",
}

# Adjective endings in this file's one context (nominative after "ein"/"eine" or with no article).
ENDINGS = {"m": "er", "f": "e", "n": "es", "pl": "e"}

# English colour word -> (German stem, inflects?). Hair colours and clothes colours are separate tables, as in
# the English (hair "ginger" and "platinum blond"; clothes "navy" and "brick red").
HAIR_COLOURS = {
    "black": ("schwarz", True), "dark brown": ("dunkelbraun", True), "brown": ("braun", True),
    "light brown": ("hellbraun", True), "ginger": ("kupferrot", True), "blond": ("blond", True),
    "platinum blond": ("platinblond", True), "red": ("rot", True), "grey": ("grau", True),
    "white": ("weiß", True), "blue": ("blau", True), "purple": ("lila", False), "pink": ("pinkfarben", True),
    "green": ("grün", True),
}
COLOURS = {
    "blue": ("blau", True), "red": ("rot", True), "teal": ("blaugrün", True), "orange": ("orangefarben", True),
    "plum": ("pflaumenfarben", True), "dark teal": ("petrolfarben", True), "yellow": ("gelb", True),
    "light blue": ("hellblau", True), "green": ("grün", True), "brick red": ("ziegelrot", True),
    "navy": ("marineblau", True), "pink": ("rosa", False), "indigo": ("indigoblau", True),
    "magenta": ("magentafarben", True), "brown": ("braun", True), "black": ("schwarz", True),
}

# Phrases with a colour: (template, gender of the noun the colour describes). "{c}" is the inflected colour.
STYLE_WORDS = {
    "short": ("kurzes {c} Haar", "n"), "long": ("langes {c} Haar", "n"), "bun": ("ein {c} Dutt", "m"),
    "curly": ("lockiges {c} Haar", "n"), "bald": ("eine Glatze", None),
    "mohawk": ("ein {c} Irokesenschnitt", "m"), "bob": ("ein {c} Bob", "m"), "afro": ("ein {c} Afro", "m"),
    "sidepart": ("{c} Haar mit Seitenscheitel", "n"), "ponytail": ("ein {c} Pferdeschwanz", "m"),
    "buzz": ("raspelkurzes {c} Haar", "n"), "fringe": ("{c} Haar mit Pony", "n"),
    "wavy": ("welliges {c} Haar", "n"), "spiky": ("eine {c} Stachelfrisur", "f"),
}
HAT_WORDS = {"beanie": ("eine {c} Strickmütze", "f"), "cap": ("eine {c} Schirmmütze", "f"),
             "headband": ("ein {c} Stirnband", "n")}
COLLAR_WORDS = {"crew": ("ein {c} Oberteil", "n"), "vneck": ("ein {c} Oberteil mit V-Ausschnitt", "n"),
                "collar": ("ein {c} Hemd", "n"), "hoodie": ("ein {c} Hoodie", "m"),
                "turtleneck": ("ein {c} Rollkragenpullover", "m")}

# Phrases without a colour.
GLASSES_WORDS = {"round": "eine runde Brille", "square": "eine eckige Brille", "cateye": "eine Cat-Eye-Brille",
                 "thick": "eine Brille mit dickem Rahmen"}
BEARD_WORDS = {"stubble": "ein Dreitagebart", "full": "ein Vollbart", "moustache": "ein Schnurrbart",
               "goatee": "ein Spitzbart"}
EARRING_WORDS = {"hoops": "Creolen", "studs": "Ohrstecker", "drops": "Ohrhänger"}
EXTRA_WORDS = {"freckles": "Sommersprossen", "blush": "rosige Wangen", "mole": "ein Schönheitsfleck",
               "necklace": "eine Halskette", "bowtie": "eine Fliege"}


def _coloured(entry, colour):
    """Fill a (template, gender) phrase with a (stem, inflects) colour, inflected for the noun's gender."""
    template, gender = entry
    if gender is None:
        return template
    stem, inflects = colour
    return template.format(c=stem + ENDINGS[gender] if inflects else stem)


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
    text = ", ".join(parts[:-1]) + " und " + parts[-1]
    return text[0].upper() + text[1:]
