"""Spanish words for the bundled demo people (job titles and the headshots' text alternatives).

Imported by scripts/make-people with importlib. Standard library only.

Variety: neutral Spanish, as Localizations/es.lproj (one file for Spain and Latin America): words every reader
knows, no Spain-only or country-only ones. So: pelo and gafas (as the site's own help text says), aretes (not the
Spain-only pendientes), corbata de lazo (not pajarita, moño, corbatín or humita), diadema, sudadera con capucha,
suéter (not jersey), cola de caballo (not coleta), marrón, rosa.

`describe(look)` builds the same list as the English describe(): hair, glasses, beard, earrings, hat, extra, top,
joined "A, B y C" (no comma before "y"; "e" before a word that starts with the sound /i/). It reads as a Spanish
description of a face does: bare nouns where Spanish uses none ("pelo corto negro", "gafas redondas", "barba
poblada", "bigote", "pecas": one "lleva gafas, bigote, perilla"), the indefinite article with garments and single
things ("una gorra roja", "un lunar", "una camiseta azul").

Agreement. Every colour follows its noun and agrees with it in gender; everything in the list is singular where it
takes a colour, so each colour has a masculine and a feminine form:
    un gorro de lana rojo        una gorra roja        una camiseta amarilla     un suéter negro de cuello alto
Colours named after a thing (naranja, rosa, fucsia, índigo, color ciruela) and colours with a shade (azul claro,
azul marino, azul petróleo, verde azulado, rojo ladrillo) do not change: "una sudadera azul claro" is the majority
usage the Diccionario panhispánico de dudas gives ("ojos azul claro", "pantalones verde botella").
Every hairstyle is said with a masculine noun ("pelo", "un afro") so the hair colours, "castaño oscuro" or
"rubio platino" included, are always the plain masculine form: "pelo castaño oscuro recogido en una cola de caballo".
The table still carries the noun's gender, so a feminine hairstyle added later gets the feminine colour.
"""

# Job titles (the site calls them «cargo»). Spanish job titles are gendered (ingeniero / ingeniera, desarrollador /
# desarrolladora) and this table has one title per role for people of any gender, so each is written as the
# function ("Desarrollo iOS", "Investigación UX", "Gestión de producto"), or with a word of common gender
# (especialista, estratega, responsable). All Spanish: English titles beside Spanish ones read as unplanned ("UX
# Researcher" next to "Responsable de marketing": a native reader).
TITLES = {
    "Software Engineer": "Ingeniería de software",
    "Senior Software Engineer": "Ingeniería de software (sénior)",
    "Product Designer": "Diseño de producto",
    "UX Researcher": "Investigación UX",
    "Engineering Manager": "Dirección de ingeniería",
    "Project Manager": "Gestión de proyectos",
    "QA Engineer": "Control de calidad",
    "Data Scientist": "Ciencia de datos",
    "iOS Developer": "Desarrollo iOS",
    "Android Developer": "Desarrollo Android",
    "DevOps Engineer": "Ingeniería DevOps",
    "Content Strategist": "Estratega de contenidos",
    "Office Manager": "Administración de oficina",
    "Recruiter": "Selección de personal",
    "Solutions Architect": "Arquitectura de soluciones",
    "Product Manager": "Gestión de producto",
    "Accessibility Specialist": "Especialista en accesibilidad",
    "Security Engineer": "Ingeniería de seguridad",
    "Technical Writer": "Redacción técnica",
    "Marketing Lead": "Responsable de marketing",
}

# English colour word -> (masculine, feminine). Hair colours and clothes colours are separate tables, as in the
# English; hair has its own words in Spanish (castaño, not marrón; cobrizo for ginger; rubio).
HAIR_COLOURS = {
    "black": ("negro", "negra"), "dark brown": ("castaño oscuro", "castaño oscuro"),
    "brown": ("castaño", "castaña"), "light brown": ("castaño claro", "castaño claro"),
    "ginger": ("cobrizo", "cobriza"), "blond": ("rubio", "rubia"),
    "platinum blond": ("rubio platino", "rubia platino"), "red": ("rojo", "roja"), "grey": ("gris", "gris"),
    "white": ("blanco", "blanca"), "blue": ("azul", "azul"), "purple": ("morado", "morada"),
    "pink": ("rosa", "rosa"), "green": ("verde", "verde"),
}
COLOURS = {
    "blue": ("azul", "azul"), "red": ("rojo", "roja"), "teal": ("verde azulado", "verde azulado"),
    "orange": ("naranja", "naranja"), "plum": ("color ciruela", "color ciruela"),
    "dark teal": ("azul petróleo", "azul petróleo"), "yellow": ("amarillo", "amarilla"),
    "light blue": ("azul claro", "azul claro"), "green": ("verde", "verde"),
    "brick red": ("rojo ladrillo", "rojo ladrillo"), "navy": ("azul marino", "azul marino"),
    "pink": ("rosa", "rosa"), "indigo": ("índigo", "índigo"), "magenta": ("fucsia", "fucsia"),
    "brown": ("marrón", "marrón"), "black": ("negro", "negra"),
}

# Feature key -> (words, gender of the noun the colour goes with: "m", "f", or None for no colour). "{c}" is where
# the colour goes: straight after the noun, before any "de ..." / "con ..." that completes it.
STYLES = {
    "short": ("pelo corto {c}", "m"),
    "long": ("pelo largo {c}", "m"),
    "bun": ("pelo {c} recogido en un moño", "m"),
    "curly": ("pelo rizado {c}", "m"),
    "bald": ("cabeza calva", None),
    "mohawk": ("pelo {c} con corte mohicano", "m"),
    "bob": ("pelo {c} con corte bob", "m"),
    "afro": ("un afro {c}", "m"),
    "sidepart": ("pelo {c} con raya a un lado", "m"),
    "ponytail": ("pelo {c} recogido en una cola de caballo", "m"),
    "buzz": ("pelo rapado {c}", "m"),
    "fringe": ("pelo {c} con flequillo", "m"),
    "wavy": ("pelo ondulado {c}", "m"),
    "spiky": ("pelo {c} de punta", "m"),
}
GLASSES = {"round": "gafas redondas", "square": "gafas cuadradas", "cateye": "gafas de ojo de gato",
           "thick": "gafas de marco grueso"}
BEARDS = {"stubble": "barba de pocos días", "full": "barba poblada", "moustache": "bigote", "goatee": "perilla"}
EARRINGS = {"hoops": "aretes de aro", "studs": "aretes de botón", "drops": "aretes colgantes"}
HATS = {
    "beanie": ("un gorro de lana {c}", "m"),
    "cap": ("una gorra {c}", "f"),
    "headband": ("una diadema {c}", "f"),
}
EXTRAS = {"freckles": "pecas", "blush": "mejillas sonrosadas", "mole": "un lunar", "necklace": "un collar",
          "bowtie": "una corbata de lazo"}
TOPS = {
    "crew": ("una camiseta {c}", "f"),
    "vneck": ("una camiseta {c} de cuello en V", "f"),
    "collar": ("una camisa {c}", "f"),
    "hoodie": ("una sudadera {c} con capucha", "f"),
    "turtleneck": ("un suéter {c} de cuello alto", "m"),
}


def _coloured(entry, colours, colour):
    """The words of a (words, gender) entry with the colour in the form its noun takes."""
    words, gender = entry
    if gender is None:
        return words
    masculine, feminine = colours[colour]
    return words.format(c=masculine if gender == "m" else feminine)


def _and(last):
    """"y", or "e" before the sound /i/ (i-, hi-; not hie-, hia-: "y hielo")."""
    word = last.lower()
    if word[:1] in ("i", "í") or (word[:2] in ("hi", "hí") and word[2:3] not in ("a", "e", "o", "u")):
        return "e"
    return "y"


def describe(look):
    """What one sees at a glance, in words: hair, then what the face wears, then the top."""
    parts = [_coloured(STYLES[look["hair_style"]], HAIR_COLOURS, look["hair"])]
    parts += [GLASSES.get(look["glasses"]), BEARDS.get(look["beard"]), EARRINGS.get(look["earrings"])]
    hat = HATS.get(look["hat"])
    parts.append(_coloured(hat, COLOURS, look["hat_colour"]) if hat else None)
    parts.append(EXTRAS.get(look["extra"]))
    parts.append(_coloured(TOPS[look["collar"]], COLOURS, look["shirt"]))
    parts = [p for p in parts if p]
    text = ", ".join(parts[:-1]) + " " + _and(parts[-1]) + " " + parts[-1]
    return text[0].upper() + text[1:]
