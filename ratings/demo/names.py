"""Countries of the demo federation: how many of its players each has, its cities, and names as people there
spell them (accents included).

Plain data. ``weight`` is the country's share of the players in percent; ``hosts`` says whether it holds
tournaments (Japanese players come to Europe's events rather than the other way round). Family names are given
in their masculine form; ``feminine`` derives the Czech, Polish and Ukrainian feminine forms.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Country:
    code: str
    adjective: str
    weight: int
    hosts: bool
    cities: tuple[str, ...]
    male: tuple[str, ...]
    female: tuple[str, ...]
    family: tuple[str, ...]


def _c(code: str, adjective: str, weight: int, cities: str, male: str, female: str, family: str) -> Country:
    def split(text: str) -> tuple[str, ...]:
        return tuple(part.strip() for part in text.split(",") if part.strip())

    return Country(code, adjective, weight, code != "JP", split(cities), split(male), split(female), split(family))


COUNTRIES: tuple[Country, ...] = (
    _c("FR", "French", 13,
       "Paris, Lyon, Marseille, Toulouse, Lille, Nantes, Strasbourg, Bordeaux, Grenoble, Rennes, Montpellier",
       "Jean, Pierre, Nicolas, Julien, Thomas, Antoine, Mathieu, François, Sébastien, Jérôme, Olivier, Benoît, "
       "Hugo, Léo, Clément, Rémi",
       "Marie, Camille, Sophie, Élodie, Chloé, Léa, Manon, Hélène, Cécile, Aurélie, Margaux, Inès",
       "Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefèvre, "
       "Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, Mercier, Bonnet, Lambert, Faure, "
       "Rousseau, Blanc, Guérin, Chevalier, Lemaître, Gauthier"),
    _c("DE", "German", 12,
       "Berlin, Hamburg, München, Köln, Frankfurt am Main, Düsseldorf, Leipzig, Dresden, Stuttgart, Hannover, Bonn",
       "Lukas, Maximilian, Jonas, Felix, Tobias, Sebastian, Jan, Florian, Stefan, Matthias, Jürgen, Andreas, Björn, "
       "Niklas, Moritz, Jörg",
       "Anna, Lena, Julia, Katharina, Sarah, Laura, Hannah, Jana, Sabine, Birgit, Anja, Jördis",
       "Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch, Bauer, "
       "Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hartmann, Lange, Werner, "
       "Köhler, Groß, Böhm, Jäger, Fuß"),
    _c("NL", "Dutch", 8,
       "Amsterdam, Rotterdam, Den Haag, Utrecht, Eindhoven, Groningen, Leiden, Nijmegen, Delft, Haarlem",
       "Daan, Bram, Sven, Thijs, Lars, Ruben, Jeroen, Maarten, Pieter, Joost, Wouter, Sjoerd, Bas, Niels",
       "Sanne, Lotte, Femke, Anouk, Eva, Marloes, Ingrid, Noor, Fleur, Iris, Maaike, Renée",
       "de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Janssen, Visser, Smit, Meijer, de Boer, Mulder, "
       "de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer, de Wit, Dijkstra, Smits, de Graaf, "
       "van der Meer, Kuijpers"),
    _c("GB", "British", 7,
       "London, Manchester, Birmingham, Edinburgh, Glasgow, Cambridge, Oxford, Leeds, Bristol, Cardiff, Nottingham",
       "Oliver, Jack, Harry, George, James, William, Thomas, Daniel, Matthew, Andrew, Richard, Christopher, "
       "Alistair, Rhys, Callum, Owen",
       "Emily, Charlotte, Sophie, Olivia, Hannah, Eleanor, Lucy, Catherine, Siobhan, Fiona, Megan, Rachel",
       "Smith, Jones, Williams, Taylor, Brown, Davies, Evans, Wilson, Thomas, Johnson, Roberts, Robinson, "
       "Thompson, Wright, Walker, White, Edwards, Hughes, Green, Hall, Wood, Harris, Lewis, Clarke, MacDonald, "
       "O'Brien, Campbell"),
    _c("CZ", "Czech", 6,
       "Praha, Brno, Ostrava, Plzeň, Olomouc, Liberec, České Budějovice, Hradec Králové, Pardubice",
       "Jan, Petr, Jiří, Tomáš, Martin, Jakub, Lukáš, Ondřej, Pavel, Michal, Václav, Vojtěch, Filip, Radek",
       "Jana, Tereza, Lucie, Kateřina, Veronika, Markéta, Eliška, Barbora, Petra, Zuzana",
       "Novák, Svoboda, Novotný, Dvořák, Černý, Procházka, Kučera, Veselý, Horák, Němec, Pokorný, Marek, "
       "Pospíšil, Hájek, Král, Jelínek, Růžička, Beneš, Fiala, Sedláček, Doležal, Zeman, Kolář, Navrátil, "
       "Čermák, Blažek, Kříž"),
    _c("PL", "Polish", 7,
       "Warszawa, Kraków, Wrocław, Poznań, Gdańsk, Łódź, Szczecin, Lublin, Katowice, Toruń",
       "Piotr, Krzysztof, Tomasz, Paweł, Michał, Marcin, Łukasz, Jakub, Kamil, Mateusz, Grzegorz, Wojciech, "
       "Bartosz, Andrzej",
       "Anna, Katarzyna, Małgorzata, Agnieszka, Magdalena, Joanna, Aleksandra, Zofia, Natalia, Karolina",
       "Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak, "
       "Dąbrowski, Kozłowski, Jankowski, Mazur, Kwiatkowski, Krawczyk, Piotrowski, Grabowski, Pawłowski, "
       "Michalski, Zając, Król, Wieczorek, Jabłoński, Wróbel, Nowicki, Majewski, Olszewski, Stępień, Górski"),
    _c("IT", "Italian", 6,
       "Roma, Milano, Torino, Bologna, Firenze, Napoli, Genova, Padova, Verona, Trieste, Pisa",
       "Marco, Luca, Andrea, Matteo, Francesco, Alessandro, Lorenzo, Davide, Simone, Federico, Giacomo, Niccolò, "
       "Riccardo, Stefano",
       "Giulia, Chiara, Francesca, Sara, Martina, Valentina, Elisa, Silvia, Alessia, Federica",
       "Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, "
       "De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, "
       "Rinaldi, Caruso, Ferrara, Galli, Martinelli, Fabbri"),
    _c("ES", "Spanish", 5,
       "Madrid, Barcelona, Valencia, Sevilla, Zaragoza, Bilbao, Málaga, Granada, Salamanca, Valladolid",
       "Alejandro, Pablo, Javier, Daniel, Sergio, David, Adrián, Álvaro, Diego, Jorge, Raúl, Íñigo, Rubén, Andrés",
       "Lucía, María, Paula, Laura, Marta, Sara, Ana, Carmen, Irene, Elena, Nuria, Begoña",
       "García, Rodríguez, González, Fernández, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz, "
       "Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Alonso, Gutiérrez, Navarro, Torres, Domínguez, Vázquez, "
       "Ramos, Gil, Ramírez, Serrano, Blanco, Molina, Ortega"),
    _c("SE", "Swedish", 4,
       "Stockholm, Göteborg, Malmö, Uppsala, Linköping, Lund, Örebro, Umeå, Västerås",
       "Erik, Lars, Karl, Anders, Johan, Per, Nils, Magnus, Fredrik, Oskar, Björn, Mattias, Gustav, Linus",
       "Anna, Karin, Maria, Sara, Emma, Ingrid, Linnéa, Elin, Sofia, Åsa, Johanna, Malin",
       "Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson, "
       "Pettersson, Jonsson, Hansson, Bengtsson, Jönsson, Lindberg, Lindström, Lindqvist, Lundgren, Berglund, "
       "Sjöberg, Åberg, Ström, Holmgren, Forsberg"),
    _c("FI", "Finnish", 3,
       "Helsinki, Espoo, Tampere, Turku, Oulu, Jyväskylä, Lahti, Kuopio",
       "Mikko, Juha, Timo, Matti, Jari, Antti, Janne, Ville, Tuomas, Eero, Lauri, Jussi, Aleksi, Olli",
       "Anna, Johanna, Laura, Maria, Elina, Sanna, Katja, Aino, Päivi, Riikka, Satu, Heidi",
       "Korhonen, Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen, "
       "Lehtonen, Lehtinen, Saarinen, Salminen, Heinonen, Niemi, Heikkilä, Kinnunen, Salonen, Turunen, Salo, "
       "Laitinen, Tuominen, Rantanen, Karjalainen, Jokinen, Mattila, Savolainen"),
    _c("BE", "Belgian", 4,
       "Bruxelles, Antwerpen, Gent, Liège, Leuven, Namur, Brugge, Charleroi, Mechelen",
       "Lucas, Louis, Arthur, Noah, Jules, Wout, Pieter-Jan, Thibault, Maxime, Kevin, Bart, Koen, Geert, Frédéric",
       "Emma, Louise, Marie, Elise, Lotte, Charlotte, Julie, Nathalie, An, Sofie, Hanne, Amélie",
       "Peeters, Janssens, Maes, Jacobs, Mertens, Willems, Claes, Goossens, Wouters, De Smet, Dubois, Lambert, "
       "Dupont, Vermeulen, Van Damme, De Backer, Hermans, Michiels, Leclercq, Lemaire, Dumont, Van de Velde, "
       "Declercq, Segers, Verstraeten"),
    _c("DK", "Danish", 2,
       "København, Aarhus, Odense, Aalborg, Esbjerg, Roskilde",
       "Mads, Rasmus, Frederik, Mikkel, Søren, Anders, Jesper, Kasper, Christian, Jens, Niels, Magnus",
       "Mette, Anne, Camilla, Louise, Sofie, Ida, Freja, Line, Maja, Signe",
       "Jensen, Nielsen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, Jørgensen, "
       "Petersen, Madsen, Kristensen, Olsen, Thomsen, Christiansen, Poulsen, Johansen, Møller, Mortensen, "
       "Østergaard, Lund, Dahl"),
    _c("NO", "Norwegian", 2,
       "Oslo, Bergen, Trondheim, Stavanger, Tromsø, Kristiansand",
       "Ole, Lars, Henrik, Kristian, Magnus, Sindre, Eirik, Håkon, Øyvind, Torbjørn, Anders, Jon, Espen, Sigurd",
       "Ingrid, Kari, Nora, Emma, Ida, Silje, Marit, Tuva, Solveig, Ragnhild",
       "Hansen, Johansen, Olsen, Larsen, Andersen, Pedersen, Nilsen, Kristiansen, Jensen, Karlsen, Johnsen, "
       "Pettersen, Eriksen, Berg, Haugen, Hagen, Johannessen, Andreassen, Jacobsen, Dahl, Halvorsen, Lie, "
       "Bakken, Strand, Solberg, Nygård"),
    _c("JP", "Japanese", 6,
       "Tōkyō, Ōsaka, Kyōto, Nagoya, Yokohama",
       "Hiroshi, Takeshi, Kenji, Daisuke, Yūta, Shōta, Kazuki, Takumi, Ryō, Naoki, Kōji, Masashi, Tatsuya, Yūsuke",
       "Yuki, Haruka, Ayaka, Misaki, Yōko, Keiko, Naomi, Sakura, Emi, Kana, Mayumi, Rie",
       "Satō, Suzuki, Takahashi, Tanaka, Watanabe, Itō, Yamamoto, Nakamura, Kobayashi, Katō, Yoshida, Yamada, "
       "Sasaki, Yamaguchi, Matsumoto, Inoue, Kimura, Hayashi, Shimizu, Yamazaki, Mori, Abe, Ikeda, Hashimoto, "
       "Ishikawa, Ogawa, Fujita, Okada, Gotō, Hasegawa"),
    _c("UA", "Ukrainian", 4,
       "Kyiv, Lviv, Kharkiv, Odesa, Dnipro, Vinnytsia",
       "Oleksandr, Andrii, Dmytro, Serhii, Volodymyr, Yurii, Mykola, Taras, Bohdan, Maksym, Ihor, Vasyl",
       "Olena, Iryna, Nataliia, Tetiana, Oksana, Kateryna, Yuliia, Mariia, Anastasiia, Daryna",
       "Shevchenko, Kovalenko, Bondarenko, Tkachenko, Kravchenko, Oliinyk, Shevchuk, Koval, Polishchuk, Bondar, "
       "Tkachuk, Moroz, Marchenko, Lysenko, Rudenko, Savchenko, Petrenko, Klymenko, Pavlenko, Kovalchuk, Melnyk, "
       "Boiko, Kovalskyi, Hnatyshyn"),
    _c("HU", "Hungarian", 3,
       "Budapest, Debrecen, Szeged, Pécs, Győr, Miskolc",
       "László, István, József, Zoltán, Gábor, Attila, Péter, Tamás, Balázs, Dániel, Ádám, Bence, Márton, Csaba",
       "Katalin, Éva, Anna, Zsófia, Eszter, Réka, Judit, Ágnes, Erzsébet, Dóra, Boglárka, Nóra",
       "Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh, Papp, Takács, Juhász, "
       "Lakatos, Mészáros, Oláh, Rácz, Fekete, Szilágyi, Török, Fehér, Gál, Szűcs, Kocsis, Pintér, Fodor"),
    _c("AT", "Austrian", 2,
       "Wien, Graz, Linz, Salzburg, Innsbruck",
       "Florian, Lukas, Markus, Christoph, Wolfgang, Gernot, Thomas, Stefan, Bernhard, Dominik",
       "Katharina, Theresa, Magdalena, Elisabeth, Verena, Barbara, Johanna",
       "Gruber, Huber, Bauer, Wagner, Pichler, Steiner, Moser, Mayer, Hofer, Leitner, Berger, Fuchs, Eder, "
       "Schmid, Winkler, Reiter, Mayr, Wimmer, Egger, Brunner, Lang, Baumgartner, Auer, Wögerbauer"),
    _c("CH", "Swiss", 2,
       "Zürich, Genève, Basel, Bern, Lausanne, Luzern",
       "Luca, Noah, Jonas, Reto, Urs, Beat, Matthias, Jean-Luc, Gian, Marco, Thierry, Samuel",
       "Lea, Laura, Mia, Nina, Sarah, Céline, Mélanie, Chiara, Corinne, Regula",
       "Müller, Meier, Schmid, Keller, Weber, Huber, Schneider, Steiner, Gerber, Brunner, Baumann, Frei, Moser, "
       "Widmer, Wyss, Graf, Roth, Favre, Rochat, Bernasconi, Lüthi, Zürcher, Näf"),
    _c("RO", "Romanian", 2,
       "București, Cluj-Napoca, Iași, Timișoara, Brașov, Constanța",
       "Andrei, Alexandru, Mihai, Ionuț, Cristian, Bogdan, Ștefan, Florin, Radu, Vlad, Gheorghe, Adrian",
       "Ioana, Maria, Elena, Andreea, Alexandra, Mihaela, Cristina, Ana, Raluca, Bianca",
       "Popescu, Ionescu, Popa, Pop, Radu, Dumitru, Stan, Stoica, Gheorghe, Matei, Ciobanu, Rusu, Munteanu, "
       "Constantin, Moldovan, Dinu, Lazăr, Barbu, Ene, Nistor, Florea, Toma, Marin, Tudor, Sârbu, Cristea, Dobre"),
    _c("PT", "Portuguese", 2,
       "Lisboa, Porto, Coimbra, Braga, Aveiro, Faro",
       "João, Tiago, Rodrigo, Diogo, Pedro, Miguel, Gonçalo, Rui, Nuno, André, Duarte, Bruno",
       "Inês, Beatriz, Mariana, Ana, Leonor, Sofia, Catarina, Joana, Rita, Margarida",
       "Silva, Santos, Ferreira, Pereira, Oliveira, Costa, Rodrigues, Martins, Sousa, Fernandes, Gonçalves, "
       "Gomes, Lopes, Marques, Alves, Almeida, Ribeiro, Pinto, Carvalho, Teixeira, Moreira, Correia, Mendes, "
       "Nunes, Soares, Vieira, Monteiro, Cardoso, Rocha, Araújo, Magalhães"),
)  # fmt: skip

BY_CODE: dict[str, Country] = {c.code: c for c in COUNTRIES}


def feminine(country: str, family: str) -> str:
    """The feminine form of a family name where the language has one (Czech, Polish, Ukrainian)."""
    if country == "CZ":
        if family.endswith("ý"):
            return family[:-1] + "á"
        if family.endswith("a"):
            return family[:-1] + "ová"
        if family.endswith("ek"):
            return family[:-2] + "ková"
        return family + "ová"
    if country == "PL" and family.endswith("ki"):
        return family[:-1] + "a"
    if country == "UA" and family.endswith("skyi"):
        return family[:-2] + "a"
    return family
