"""Short passages written for these tests (no third-party text), one per language.

Each is encoded with Python's codecs into the encodings text in that script really comes in;
the tests check that detection gives back exactly the passage. Two sentences of about 150 to
250 characters are about the shortest evidence the program is meant for.
"""

SAMPLES = {
    "ru": (
        "Вчера вечером я долго гулял по набережной и думал о том, что письмо, которое пришло "
        "утром, написано совсем не тем человеком, за кого он себя выдаёт. Почерк знакомый, "
        "но слова чужие."
    ),
    "uk": (
        "Учора ввечері я довго гуляв набережною і думав про те, що лист, який прийшов уранці, "
        "написала зовсім інша людина. Речення короткі, а підпис виглядає чужим і незграбним."
    ),
    "pl": (
        "Wczoraj wieczorem długo spacerowałem nad rzeką i myślałem o tym, że list, który "
        "przyszedł rano, napisał ktoś zupełnie inny. Zdania są krótkie, żółć w każdym słowie, "
        "a podpis wygląda obco."
    ),
    "cs": (
        "Včera večer jsem se dlouho procházel podél řeky a přemýšlel o dopise, který ráno "
        "přišel. Napsal ho někdo úplně jiný, věty jsou krátké a podpis vypadá cize. "
        "Žluťoučký kůň úpěl ďábelské ódy."
    ),
    "el": (
        "Χθες το βράδυ περπάτησα πολύ δίπλα στη θάλασσα και σκεφτόμουν ότι το γράμμα που ήρθε "
        "το πρωί το έγραψε κάποιος άλλος. Οι προτάσεις είναι σύντομες και η υπογραφή μοιάζει "
        "ξένη."
    ),
    "he": (
        "אתמול בערב טיילתי הרבה לאורך הים וחשבתי שהמכתב שהגיע בבוקר נכתב על ידי מישהו אחר "
        "לגמרי. המשפטים קצרים והחתימה נראית זרה."
    ),
    "ar": (
        "بالأمس في المساء تمشيت طويلا على شاطئ البحر وفكرت أن الرسالة التي وصلت في الصباح "
        "كتبها شخص آخر تماما. الجمل قصيرة والتوقيع يبدو غريبا."
    ),
    "tr": (
        "Dün akşam sahil boyunca uzun uzun yürüdüm ve sabah gelen mektubu bambaşka birinin "
        "yazdığını düşündüm. Cümleler kısa, imza ise yabancı görünüyor. Şöyle ağır, çığlık gibi."
    ),
    "ja": (
        "昨日の夜、私は海岸を長い間歩きながら、朝届いた手紙はまったく別の人が書いたものだと"
        "考えていた。文は短く、署名は見慣れないものに見える。"
    ),
    "zh": (
        "昨天晚上我在海边走了很久，一直在想早上收到的那封信完全是另一个人写的。句子很短，"
        "签名看起来很陌生。"
    ),
    "zh_hant": (
        "昨天晚上我在海邊走了很久，一直在想早上收到的那封信完全是另一個人寫的。句子很短，"
        "簽名看起來很陌生。"
    ),
    "ko": (
        "어제 저녁 나는 바닷가를 오랫동안 걸으며 아침에 온 편지는 완전히 다른 사람이 쓴 것이라고 "
        "생각했다. 문장은 짧고 서명은 낯설어 보인다."
    ),
    "fr": (
        "Hier soir, je me suis promené longtemps au bord de la mer et j'ai pensé que la lettre "
        "arrivée le matin avait été écrite par quelqu'un d'autre. Les phrases sont brèves ; la "
        "signature paraît étrangère. Œuvre, cœur, été, où, déjà — ça coûte 5 €."
    ),
    "de": (
        "Gestern Abend bin ich lange am Meer spazieren gegangen und dachte, dass der Brief, der "
        "morgens kam, von jemand ganz anderem geschrieben wurde. Die Sätze sind kurz, die "
        "Unterschrift wirkt fremd. Größe, Übel, Ärger."
    ),
}

# (language, Python codec) pairs: every encoding the detector is expected to read back exactly.
ENCODED = [
    ("ru", "cp1251"),
    ("ru", "koi8_r"),
    ("ru", "iso8859_5"),
    ("ru", "cp866"),
    ("uk", "koi8_u"),
    ("uk", "cp1251"),
    ("pl", "cp1250"),
    ("pl", "iso8859_2"),
    ("cs", "cp1250"),
    ("cs", "iso8859_2"),
    ("el", "cp1253"),
    ("el", "iso8859_7"),
    ("he", "cp1255"),
    ("he", "iso8859_8"),
    ("ar", "cp1256"),
    ("ar", "iso8859_6"),
    ("tr", "cp1254"),
    ("tr", "iso8859_9"),
    ("ja", "shift_jis"),
    ("ja", "cp932"),
    ("ja", "euc_jp"),
    ("ja", "iso2022_jp"),
    ("zh", "gb2312"),
    ("zh", "gbk"),
    ("zh", "gb18030"),
    ("zh_hant", "big5"),
    ("ko", "euc_kr"),
    ("ko", "cp949"),
    ("fr", "cp1252"),
    ("fr", "mac_roman"),
    ("de", "cp1252"),
    ("de", "iso8859_1"),
    ("de", "iso8859_15"),
]
